import Bindings

/// The filter field of the status line. Its `text` is bound two-way (`<~>`) to the
/// table model's filter: typing here narrows the table, and a filter set on the model
/// shows here.
package final class FilterFieldView: KeyValueObservable, BindingOwner {
    /// The text typed.
    @Observed package var text: String? = ""
    /// Whether keys go to the field (after `/`, until Enter or Esc).
    @Observed package var isEditing = false
    /// Where the binding lives; it ends with the view.
    package var subscriptions = Set<AnyCancellable>()

    /// An empty field.
    package init() {}

    /// Binds the field both ways to `table`'s filter.
    package func bind(to table: ProcessTableModel) {
        table.reactive.filter <~> reactive.text
    }

    /// Whether the field has something to show: it is being edited, or holds a filter.
    package var isShown: Bool { isEditing || !(text ?? "").isEmpty }

    /// Draws "filter: text" on `row` within `width` columns, with a block cursor while
    /// editing; the end of a long text stays visible.
    package func draw(into frame: inout Frame, row: Int, width: Int) {
        let label = "filter: "
        let column = frame.draw(label, row: row, column: 0, width: width, style: Style(.yellow, bold: true))
        let room = width - column - (isEditing ? 1 : 0)
        guard room > 0 else { return }
        let shown = DisplayText.scalars(text ?? "").suffix(room)
        let end = column + frame.draw(Array(shown), row: row, column: column)
        if isEditing { frame.draw(" ", row: row, column: end, style: Style(reverse: true)) }
    }
}
