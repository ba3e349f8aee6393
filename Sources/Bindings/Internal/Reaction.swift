import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// What `autorun(_:)` makes: a closure that runs again after any change of the
/// observable storage its last run read.
///
/// Each run tracks what the closure reads (as a computed key path's evaluation does,
/// see ``DependencyTracking``) and links with exactly those channels: a branch that stops
/// reading a property stops depending on it. A run is a batch (`batchChanges`), so the
/// closure's own sets reach their observers once it returns.
///
/// One run at a time: a change that arrives while the closure runs (a set from inside
/// it, delivered when its batch ends, or a set on another thread) makes the running
/// thread run it again when it returns, rather than run it re-entrantly or at once on a
/// second thread. A reaction that keeps changing what it reads stops the program with a
/// message naming the key paths, as a loop that never ends would otherwise hang it: after
/// ``runLimit`` runs in a row (each asked for during the last), or when a batch's flush
/// asks for a run with a change that a chain of more than ``runLimit`` reactions' runs
/// caused, one causing the next (directly, or through the observers that a change
/// reached; see `BatchContext.deliveringDepth`). Only the length of such a chain counts:
/// an observer may set a property that a reaction reads any number of times in one
/// flush (a countdown), and the reaction runs each time, setting what it likes.
///
/// Lifetime: the links with the channels hold the reaction; ``cancel()`` (the returned
/// `AnyCancellable`) drops them and the closure. The reaction holds no model itself.
final class Reaction: DependentHandler, @unchecked Sendable {
    // `@unchecked Sendable`:
    // - `body` and `tracked` are touched only by the thread that holds `State.running` in
    //   `state` (one at a time: it takes the bit with an acquiring compare-and-swap and
    //   gives it up with a releasing one), or by `deinit`. `body` is called on the
    //   closure's isolation: `schedule` hops to the main queue or the closure's actor.
    // - `lock` guards `links`, `batchMark` and `delivery`; `cancel()` sets
    //   `State.cancelled` with it held, so that `relink` sees it under the lock.
    // - `schedule` is set in `start(isolation:_:)` before the reaction is shared, and only read after.

    /// How many runs one flush of changes may cause before the reaction is stopped.
    static let runLimit = 100

    /// Where a change makes the closure run.
    enum Schedule {
        /// On the thread of the change (nonisolated code).
        case inline
        /// On the main thread: at once when the change is made there, else through the
        /// main queue.
        case mainActor
        /// On another actor, through its delivery.
        case actor((()) -> Void)
    }

    /// The bits of ``state``.
    private enum State {
        /// Some thread runs the closure, and alone touches ``body`` and ``tracked``
        /// (``cancel()`` takes the bit for good when no run holds it).
        static let running: UInt8 = 1
        /// A change arrived during the run: the running thread runs the closure again.
        static let rerun: UInt8 = 2
        /// Set by ``cancel()``: no run starts after it, and the running thread, if any,
        /// drops the closure when its run ends.
        static let cancelled: UInt8 = 4
    }

    /// The run's state: a change starts a run, or asks the running thread for another,
    /// with one compare-and-swap, and a run ends with one. (A lock taken at both ends
    /// cost an `autorun` set + run four atomic operations.)
    private let state = Atomic<UInt8>(0)

    // `@exclusivity(unchecked)` on the fields below: `state` or `lock` orders every
    // access, and no access spans a call that could touch them again.
    private let lock = CompactLock()
    /// The closure: `nil` for good once cancelled.
    ///
    /// One owned (+1) reference, held as `Unmanaged` so that a run calls the closure with
    /// no reference counting (through a strong optional, its box was retained and
    /// released around every run). Whoever ends the reaction releases it: the running
    /// thread if a run is under way at the cancel, else `cancel()`, else `deinit`.
    @exclusivity(unchecked) private var body: Unmanaged<Body>?
    @exclusivity(unchecked) private var links: [ObjectIdentifier: any DependencyLink] = [:]
    /// What the last run read, in order: the next run expects the same reads, and then
    /// allocates nothing and leaves the links alone.
    @exclusivity(unchecked) private var tracked: [any DependencySource] = []
    /// Its evaluations and runs in the current flush of a batch.
    @exclusivity(unchecked) private var batchMark = BatchMark()
    /// Set in `start`, before the reaction is shared.
    private var schedule = Schedule.inline
    /// The actor delivery, stopped with the reaction.
    private var delivery: (any StoppableDelivery)?

    /// The closure, in a box: an optional closure swapped in and out through a generic
    /// `swap` would be wrapped in one more reabstraction thunk at each move.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    private init() {}

    /// Makes the reaction for a closure made on `isolation` and runs it once, now.
    static func start(isolation: isolated (any Actor)?, _ body: @escaping () -> Void) -> Reaction {
        let reaction = Reaction()
        if CallerIsolation.isMainActor(isolation) {
            reaction.schedule = .mainActor
        } else if isolation != nil {
            let (delivery, deliver) = ActorDelivery<Void>.make(on: isolation) { [weak reaction] in
                reaction?.trigger()
            }
            reaction.delivery = delivery
            reaction.schedule = .actor(deliver)
        }
        // Not shared yet: this thread holds the first run.
        reaction.state.store(State.running, ordering: .relaxed)
        reaction.body = .passRetained(Body(body))
        reaction.runUntilSettled()
        return reaction
    }

    // MARK: DependentHandler

    func dependencyWillChange(_ indexed: IndexedChange?) {}

    func dependencyDidChange(_ indexed: IndexedChange?, setOwner: ObjectIdentifier?) {
        // A batch's flush: one run sees every change made before it.
        var depth = 0
        if BatchContext.isActive {
            let repeated = BatchContext.withCurrent { context in
                if context.flushing { depth = context.deliveringDepth }
                return lock.withLock { batchMark.isRepeat(in: context) }
            }
            if repeated == true { return }
        }
        switch schedule {
        case .inline:
            trigger(trusting: setOwner, depth: depth)
        case .mainActor:
            if MainThread.isCurrent {
                trigger(trusting: setOwner, depth: depth)
            } else {
                DispatchQueue.main.async { [weak self] in self?.trigger() }
            }
        case .actor(let deliver):
            deliver(())
        }
    }

    /// A dependency's channel closed (its model is gone): the next run reads what is
    /// there then, and links with that.
    func dependencyEnded() {}

    // MARK: Running

    /// Runs the closure now, or has the thread running it run it again. `trustedOwner`:
    /// the model whose set this thread is delivering, if the run is part of that delivery
    /// (see `DependencyTracking.Recorder.trustedOwner`). `depth`: that of the change that
    /// asks for the run (see the type's comment).
    private func trigger(trusting trustedOwner: ObjectIdentifier? = nil, depth: Int = 0) {
        var current = state.load(ordering: .relaxed)
        while true {
            if current & State.cancelled != 0 { return }
            let runsNow = current & State.running == 0
            let desired = current | (runsNow ? State.running : State.rerun)
            if desired == current { return }   // another run is asked for already
            // Acquiring: a new run sees what the last one left in `body` and `tracked`.
            // Releasing: the running thread, which reads `rerun` with acquiring, sees the
            // change that asks for another run.
            let (exchanged, original) = state.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                if runsNow { runUntilSettled(trusting: trustedOwner, depth: depth) }
                return
            }
            current = original
        }
    }

    /// Runs the closure until no change arrived during its last run, then gives up
    /// `State.running` (or, cancelled meanwhile, drops the closure and what it read).
    /// The caller holds `State.running`, and so ``body`` and ``tracked``. `depth`: that of
    /// the change that asked for the first run; the closure's changes are one deeper.
    private func runUntilSettled(trusting trustedOwner: ObjectIdentifier? = nil, depth: Int = 0) {
        // Moved out for the runs, and back at the end: read from the field, the array
        // was retained and released around each run.
        var expected: [any DependencySource] = []
        swap(&expected, &tracked)
        var runs = 0
        while true {
            runs += 1
            if runs > Self.runLimit || depth > Self.runLimit {
                stopRunaway(expected)
            }
            // The batch ends inside: the closure's own sets are delivered, and a change
            // that reached this reaction meanwhile set `rerun`.
            var missedChange = false
            // Every run here is part of the delivery that started the first (a change from
            // elsewhere only asks for another run), so `trustedOwner` holds for each.
            if let reads = Self.run(body.unsafelyUnwrapped, expecting: expected, trusting: trustedOwner, depth: depth) {
                relink(to: reads.sources)
                expected = reads.sources
                // A property read for the first time and set after the read (by the
                // closure itself, or by another thread) before the link with it existed:
                // no notification reached this reaction, which must run again.
                missedChange = reads.changedSinceRead()
            }
            var current = state.load(ordering: .acquiring)
            while true {
                if current & State.cancelled != 0 {
                    // `cancel()` left the closure to this run: `State.running` stays set
                    // for good, so nothing else touches these.
                    body?.release()
                    body = nil
                    return
                }
                let again = missedChange || current & State.rerun != 0
                if !again { swap(&expected, &tracked) }
                let desired = again ? current & ~State.rerun : current & ~(State.running | State.rerun)
                let (exchanged, original) = state.compareExchange(
                    expected: current, desired: desired, ordering: .acquiringAndReleasing)
                if exchanged {
                    if again { break }
                    return
                }
                if !again { swap(&expected, &tracked) }   // not given up: still this run's
                current = original
            }
        }
    }

    /// One run of `body`, as a batch, tracking what it reads: returns what it read, or
    /// `nil` if exactly `expected`. The caller holds `body`'s reference for the whole run.
    private static func run(
        _ body: Unmanaged<Body>, expecting expected: [any DependencySource], trusting trustedOwner: ObjectIdentifier?,
        depth: Int
    ) -> DependencyTracking.TrackedReads? {
        body._withUnsafeGuaranteedRef { body in
            BatchContext.batch { context in
                // The closure's changes are one deeper than the one that ran it (see the
                // type's comment); restored after, for a run nested in another's.
                let outer = context._withUnsafeGuaranteedRef { $0.runDepth }
                context._withUnsafeGuaranteedRef { $0.runDepth = depth + 1 }
                defer { context._withUnsafeGuaranteedRef { $0.runDepth = outer } }
                return DependencyTracking.trackChanges(expecting: expected, in: context, trusting: trustedOwner) { body.run() }
            }
        }
    }

    /// Links with what the last run read, and leaves what it no longer reads. Only the
    /// running thread relinks; a cancel meanwhile detaches what it attached.
    private func relink(to sources: [any DependencySource]) {
        var missing: [any DependencySource] = []
        var dropped: [any DependencyLink] = []
        lock.lock()
        if isCancelled {
            lock.unlock()
            return
        }
        var kept: [ObjectIdentifier: any DependencyLink] = [:]
        for source in sources {
            let id = ObjectIdentifier(source)
            if let link = links.removeValue(forKey: id) { kept[id] = link } else { missing.append(source) }
        }
        dropped = Array(links.values)
        links = kept
        for link in dropped { link.retire() }
        lock.unlock()
        for link in dropped { link.detach() }

        let attached = missing.map { ($0, $0.attach(self, role: .changes, keeping: nil)) }
        var late: [any DependencyLink] = []
        lock.lock()
        if isCancelled {
            late = attached.map { $0.1 }
        } else {
            for (source, link) in attached { links[ObjectIdentifier(source)] = link }
        }
        for link in late { link.retire() }
        lock.unlock()
        for link in late { link.detach() }
    }

    /// Whether ``cancel()`` ran; read under `lock`, which `cancel()` sets it under.
    private var isCancelled: Bool { state.load(ordering: .relaxed) & State.cancelled != 0 }

    /// Stops the program: the closure keeps changing what it reads.
    private func stopRunaway(_ tracked: [any DependencySource]) -> Never {
        let keys = tracked.map(\.sourceName)
        fatalError("""
            Bindings: autorun ran \(Self.runLimit) times in one flush of changes: its closure keeps \
            changing what it reads (\(keys.joined(separator: ", "))). Set a value only when it differs \
            (`if model.count != new { model.count = new }`), or derive it with a computed property.
            """)
    }

    /// Ends the reaction: no run starts after this returns (one under way on another
    /// thread finishes), and the closure and the links are released.
    func cancel() {
        lock.lock()
        // Takes `State.running` too, for good: if no run held it, the closure and what
        // it read are this call's to drop; if one did, that run drops them when it ends.
        let before = state.bitwiseOr(State.cancelled | State.running, ordering: .acquiringAndReleasing).oldValue
        let links = Array(self.links.values)
        self.links = [:]
        let delivery = self.delivery
        self.delivery = nil
        for link in links { link.retire() }
        lock.unlock()
        for link in links { link.detach() }
        delivery?.cancel()
        if before & (State.running | State.cancelled) == 0 {
            body?.release()
            body = nil
            tracked = []
        }
    }

    deinit {
        // Never cancelled (a reaction is released through its `AnyCancellable`, which
        // cancels it; a cancelled one has dropped the closure). No run is under way: a
        // run holds the reaction.
        body?.release()
    }
}
