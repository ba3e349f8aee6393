/// Runs `body` now, and again after any change of the observable storage it read, until
/// the returned cancellable is cancelled or released.
///
/// ```swift
/// let reaction = autorun {
///     label.text = "\(person.fullName) (\(settings.volume))"
/// }
/// person.firstName = "Grace"   // runs again, at once, on this thread
/// ```
///
/// - **Dependencies** are the `@Observed` properties (and key paths notified by hand),
///   `ObservableValue`s and `ObservableArray`s that the last run read, found again on
///   each run: a branch that stops reading a
///   property stops depending on it. An in-place mutation (`count += 1`,
///   `tags.append(tag)`) writes without reading: it adds no dependency.
/// - **When**: synchronously, on the thread of the set that changed a dependency (from
///   nonisolated code); once per batch (`batchChanges`), after it, with every change
///   made. Made in main-actor code, it runs on the main thread only (at once when the
///   change is made there, else through the main queue); made on another actor, it runs
///   on that actor, asynchronously.
/// - **One run at a time**: a change during a run (a set on another thread, or the
///   closure's own sets, delivered as one batch when it returns) runs it again after the
///   current run. A closure that sets what it reads runs again until the values settle;
///   if it is still changing them after 100 runs in one flush of changes, the program
///   stops with a message naming the key paths. What counts is a chain of runs, each
///   caused by a change that the last one made (directly, or through observers that the
///   change reached, as with two reactions that feed each other): an observer may set
///   what the closure reads any number of times in one flush, and what the closure sets
///   each time may run other reactions that change nothing.
/// - **Lifetime**: the reaction holds the closure, not the models (what the closure
///   captures, it holds). Cancelling the returned value, or releasing it, ends the
///   reaction: no run starts after that.
///
/// Like Bond's and MobX's `autorun`; to observe one key path, `observe(_:options:)` or
/// `publisher(for:)` says which changed and how.
public func autorun(isolation: isolated (any Actor)? = #isolation, _ body: @escaping () -> Void) -> AnyCancellable {
    let reaction = Reaction.start(isolation: isolation, body)
    return AnyCancellable.unchecked { reaction.cancel() }
}
