extension Publisher where Failure == Never {
    /// Republishes the elements of this publisher through a `@Published` property, as
    /// Combine's `assign(to:)` does: each value is set on the property (so
    /// `objectWillChange` and `$property`'s subscribers hear of it), for as long as the
    /// property lives.
    ///
    /// Pass the property's projection, `&$property`. Nothing is returned to keep: the
    /// property holds the subscription and cancels it when it deinitialises (with its
    /// object); the subscription ends sooner when this publisher finishes. The property is
    /// held weakly, so an object that assigns to its own property forms no cycle.
    ///
    /// ```swift
    /// final class Clock: ObservableObject {
    ///     @Published var seconds = 0
    ///     init(ticks: some Publisher<Int, Never>) {
    ///         ticks.assign(to: &$seconds)   // lives as long as this clock
    ///     }
    /// }
    /// ```
    ///
    /// Values are set on the thread that sends them: as with Combine's `@Published`, the
    /// object's isolation is the caller's to keep (`receive(on:)` first, when it needs one).
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let list: ObservedAssignments
        if let existing = box.assignments {
            list = existing
        } else {
            list = ObservedAssignments()
            box.assignments = list
        }
        // Not `[weak box]`: see `WeakReference`.
        let reference = WeakReference(box)
        startAssignment(writingWith: { value in
            guard let box = reference.object else { return false }
            box.set(value)
            return true
        }, keptBy: list)
    }
}
