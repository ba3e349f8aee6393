/// Ends the observations of a model that has no `@Observed` storage the moment the model
/// deinitialises.
///
/// Swift tells a library when an object goes only through the object's own storage: an
/// `@Observed` property is destroyed with its model, and closes its observers then. A
/// model whose observed key paths read no `@Observed` storage (values notified by hand
/// with ``KeyValueObservable/willChangeValue(for:)`` and
/// ``KeyValueObservable/didChangeValue(for:)``, or nothing observable at all) gives no
/// such signal, and its observations end only at a later clean-up. An anchor is that
/// signal: store one in the model, and when the model deinitialises its observers
/// receive `.finished` and their change handlers are released, at once, on the thread
/// that released the model.
///
/// ```swift
/// final class Thermometer: KeyValueObservable {
///     let observationAnchor = ObservationAnchor()
///     private var storage = 20.0
///     var celsius: Double {
///         get { storage }
///         set { willChangeValue(for: \.celsius); storage = newValue; didChangeValue(for: \.celsius) }
///     }
/// }
/// var thermometer: Thermometer? = Thermometer()
/// let c = thermometer!.publisher(for: \.celsius).sink(
///     receiveCompletion: { _ in print("finished") }, receiveValue: { print($0) })   // 20.0
/// thermometer = nil                                                                  // "finished"
/// ```
///
/// Each model makes its own, in a stored `let` of the class that conforms to
/// ``KeyValueObservable`` (a subclass's property does not replace the conforming class's
/// witness). An anchor that is shared by several models, or that is not stored in its
/// model, is reported on standard error and ends nothing early. Models with `@Observed`
/// storage do not need one, but may have one.
///
/// `Sendable`: the model may be released on any thread.
public final class ObservationAnchor: @unchecked Sendable {
    // `@unchecked Sendable`: `entries` and `misused` are only touched with
    // `ManualChangeRegistry.table.lock` held; `isAnchor` is a `let`.

    /// `false` for the shared instance that models without an anchor return.
    let isAnchor: Bool
    /// The hand-notification state of the model this anchor serves (one entry), taken out
    /// of the registry when the anchor is released with the model.
    var entries: [ManualChangeRegistry.Entry] = []
    /// Set once the anchor turned out to serve several models: it serves none then.
    var misused = false

    /// Creates an anchor for one model; store it in the model as `observationAnchor`.
    ///
    /// ```swift
    /// final class Counter: KeyValueObservable {
    ///     let observationAnchor = ObservationAnchor()
    /// }
    /// ```
    public init() {
        isAnchor = true
    }

    private init(unanchored: Void) {
        isAnchor = false
    }

    /// What a model without an anchor returns: it anchors nothing.
    static let unanchored = ObservationAnchor(unanchored: ())

    deinit {
        if isAnchor { ManualChangeRegistry.release(self) }
    }
}
