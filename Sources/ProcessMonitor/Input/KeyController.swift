/// What a key did.
package enum KeyOutcome: Equatable, Sendable {
    /// Nothing to do.
    case ignored
    /// The screen changed: draw it.
    case redraw
    /// Draw the whole screen again, not only what changed (Ctrl-L).
    case fullRedraw
    /// The user asked to quit.
    case quit
}

/// Turns keys into changes of the models and views.
///
/// - `q`, Ctrl-C: quit (Ctrl-C also while typing a filter).
/// - `s`: sort by the next column; `S`: reverse the order.
/// - `/`: type a filter; the field is bound two-way to the table's filter, so each key
///   typed narrows the rows. Enter keeps it, Esc clears it; Backspace deletes.
/// - Esc (not typing): clears the filter.
/// - `p`: pause or resume the refreshes.
/// - Up, Down, Page Up, Page Down, Home, End: scroll the table.
/// - Ctrl-L: draw the screen again.
package struct KeyController {
    private let table: ProcessTableModel
    private let field: FilterFieldView
    private let state: MonitorState
    private let view: ProcessTableView

    /// A controller of these models and views.
    package init(table: ProcessTableModel, field: FilterFieldView, state: MonitorState, view: ProcessTableView) {
        self.table = table
        self.field = field
        self.state = state
        self.view = view
    }

    /// Handles `key`.
    package func handle(_ key: Key) -> KeyOutcome {
        if key == .interrupt { return .quit }
        if let outcome = scroll(key) { return outcome }
        if key == .redraw { return .fullRedraw }
        return field.isEditing ? edit(key) : command(key)
    }

    private func command(_ key: Key) -> KeyOutcome {
        switch key {
        case .character("q"): return .quit
        case .character("s"): table.cycleSortColumn()
        case .character("S"): table.reverseSortOrder()
        case .character("p"): state.paused.toggle()
        case .character("/"): field.isEditing = true
        case .escape where !(field.text ?? "").isEmpty: field.text = ""
        default: return .ignored
        }
        return .redraw
    }

    private func edit(_ key: Key) -> KeyOutcome {
        switch key {
        case .character(let character):
            field.text = (field.text ?? "") + String(character)
        case .backspace:
            guard let text = field.text, !text.isEmpty else { return .ignored }
            field.text = String(text.dropLast())
        case .enter:
            field.isEditing = false
        case .escape:
            field.text = ""
            field.isEditing = false
        default:
            return .ignored
        }
        return .redraw
    }

    private func scroll(_ key: Key) -> KeyOutcome? {
        switch key {
        case .up: view.scroll(by: -1)
        case .down: view.scroll(by: 1)
        case .pageUp: view.scroll(pages: -1)
        case .pageDown: view.scroll(pages: 1)
        case .home: view.scroll(toTop: true)
        case .end: view.scroll(toTop: false)
        default: return nil
        }
        return .redraw
    }
}
