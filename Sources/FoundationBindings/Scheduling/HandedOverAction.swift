/// A scheduler action on its way to the run loop or operation queue that runs it: this
/// module's counterpart of the core's `ScheduledAction` (internal to `Bindings`).
///
/// Combine's `Scheduler` API types actions as plain `() -> Void`, while Foundation's
/// `RunLoop.perform(_:)`, `OperationQueue.addOperation(_:)` and Dispatch take `@Sendable`
/// closures. This box carries the action across.
///
/// `@unchecked Sendable`, and why that is sound: a scheduled action is *handed over*. The
/// code that calls `schedule` gives the closure away and never calls it itself (the
/// ``Scheduler`` contract); the run loop or the operation queue then calls it on one
/// thread per firing, after a happens-before edge (the run loop's lock, taken to enqueue
/// the block or add the timer and again to run it; the operation queue's lock, taken to
/// add the operation and to start it), and never concurrently with itself (a block or a
/// one-shot operation runs once; a repeating action fires serially, see the schedulers).
/// So the closure value is used by one thread at a time. What the closure *captures* is
/// the scheduling code's business, as with Combine's own schedulers: this library's
/// operators capture only their subscription objects, whose mutable state is guarded by
/// their locks.
struct HandedOverAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}
