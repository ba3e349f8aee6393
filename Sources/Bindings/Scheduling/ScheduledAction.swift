/// A scheduler action on its way to the dispatch queue that runs it.
///
/// Combine's `Scheduler` API types actions as plain `() -> Void`, while Dispatch, in
/// Swift 6, takes `@Sendable` closures. This box carries the action across.
///
/// `@unchecked Sendable`, and why that is sound: a scheduled action is *handed over*.
/// The code that calls `schedule` gives the closure away and never calls it itself (the
/// ``Scheduler`` contract); Dispatch then calls it on exactly one thread per firing, after
/// a happens-before edge (the enqueue on the queue), and never concurrently with itself
/// (a work item runs once; a timer source's handler runs serially on its target queue).
/// So the closure value is used by one thread at a time. What the closure *captures* is
/// the scheduling code's business, exactly as with Combine's own `DispatchQueue`
/// scheduler on Apple platforms: this library's operators capture only their
/// subscription objects, whose mutable state is guarded by their locks.
struct ScheduledAction: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) { self.run = run }
}
