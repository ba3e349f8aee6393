/// Runs `body` and holds back every change notification it causes until the end, so
/// that observers see the models only in their state after the whole batch.
///
/// ```swift
/// let token = person.observe(\.fullName, options: [.old, .new]) { _, change in
///     print(change.oldValue!, "->", change.newValue!)
/// }
/// batchChanges {
///     person.firstName = "Grace"
///     person.lastName = "Hopper"
/// }
/// // Ada Lovelace -> Grace Hopper   (never "Grace Lovelace")
/// ```
///
/// - Inside the batch, reads see each new value at once; no observer runs.
/// - When the outermost batch ends (nested batches join it), every observer whose key
///   path changed gets exactly one notification, its `old` the value before the batch
///   and its `new` the value after it, in the order the key paths first changed. A
///   computed key path over several changed properties is evaluated once. A `.prior`
///   notice comes once, before the batch's first change of that key path.
/// - Never stale: a set made by an observer while the batch's changes are delivered (on
///   this model or another) is delivered in the same flush, after the current one.
/// - An observer added inside the batch, after its key path changed, gets the batch's
///   notification too; if it asked for old values and no observer had before the
///   change, its `old` is the value when it was added.
/// - A batch belongs to the thread that runs it, which must be where its models are set
///   (their isolation): a set made on another thread at the same time is not held.
/// - Without a batch nothing changes: every set notifies, as with KVO.
///
/// Standalone publishers of their own (``ObservableValue``, subjects) are not observed
/// properties and notify at once, and so do an ``ObservableArray``'s `changes` (its
/// `batchUpdates(_:)` makes one changeset of many edits). Key paths and reactions that
/// read an array are held like the rest: a model's `\.tasks` gets one `.setting` change
/// at the end (several edits make no one indexed change), `\.tasks.count` one change,
/// an `autorun` one run.
///
/// - Returns: What `body` returns. If it throws, the changes it made are still delivered,
///   then the error propagates.
public func batchChanges<Result>(_ body: () throws -> Result) rethrows -> Result {
    try BatchContext.batch { _ in try body() }
}
