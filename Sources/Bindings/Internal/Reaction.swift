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
/// second thread. Within one flush of changes a reaction runs at most
/// ``runLimit`` times: one that keeps changing what it reads stops the program with a
/// message naming the key paths, as a loop that never ends would otherwise hang it.
///
/// Lifetime: the links with the channels hold the reaction; ``cancel()`` (the returned
/// `AnyCancellable`) drops them and the closure. The reaction holds no model itself.
final class Reaction: DependentHandler, @unchecked Sendable {
    // `@unchecked Sendable` (`lock` guards `body`, `links`, `tracked`, `running`, `rerun`,
    // `batchMark`, `delivery`):
    // - `body` is called only by the thread that set `running` (one at a time), on the
    //   closure's isolation: `schedule` hops to the main queue or the closure's actor.
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

    // `@exclusivity(unchecked)` on the fields `lock` guards: it orders every access, and
    // no access spans a call that could touch them again (the closure runs unlocked).
    private let lock = CompactLock()
    /// The closure: moved out to the running thread while a run is under way, and back
    /// when it ends; `nil` for good once ``cancelled``.
    ///
    /// One owned (+1) reference, held as `Unmanaged` so that a run calls the closure with
    /// no reference counting: called through a strong optional that a run moves in and
    /// out, its box was retained and released around every run (two atomic operations
    /// of an `autorun` set + run, measured). Whoever holds the reference, the reaction
    /// or the running thread, is the one who releases it: `cancel()` when no run holds
    /// it, else the run when it ends, or `deinit`.
    @exclusivity(unchecked) private var body: Unmanaged<Body>?
    /// Set by ``cancel()``: no run starts after it, and the running thread, if any, drops
    /// the closure when its run ends.
    @exclusivity(unchecked) private var cancelled = false
    @exclusivity(unchecked) private var links: [ObjectIdentifier: any DependencyLink] = [:]
    /// What the last run read, in order: the next run expects the same reads, and then
    /// allocates nothing and leaves the links alone. Moved out with ``body`` while a run
    /// is under way.
    @exclusivity(unchecked) private var tracked: [any DependencySource] = []
    @exclusivity(unchecked) private var running = false
    @exclusivity(unchecked) private var rerun = false
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
        reaction.running = true   // not shared yet: the first run holds the closure
        var body: Unmanaged<Body>? = .passRetained(Body(body))
        var expected: [any DependencySource] = []
        reaction.runUntilSettled(&body, &expected)
        return reaction
    }

    // MARK: DependentHandler

    func dependencyWillChange(_ indexed: IndexedChange?) {}

    func dependencyDidChange(_ indexed: IndexedChange?, rootHeld: Bool) {
        // A batch's flush: one run sees every change made before it.
        if BatchContext.isActive,
           BatchContext.withCurrent({ context in lock.withLock { batchMark.isRepeat(in: context) } }) == true {
            return
        }
        switch schedule {
        case .inline:
            trigger()
        case .mainActor:
            if MainThread.isCurrent {
                trigger()
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

    /// Runs the closure now, or has the thread running it run it again.
    private func trigger() {
        lock.lock()
        if cancelled {
            lock.unlock()
            return
        }
        if running {
            rerun = true
            lock.unlock()
            return
        }
        running = true
        // Moved, not copied: the run holds them, and no retain is paid.
        var body: Unmanaged<Body>?
        var expected: [any DependencySource] = []
        swap(&body, &self.body)
        swap(&expected, &tracked)
        lock.unlock()
        runUntilSettled(&body, &expected)
    }

    /// Runs `body` until no change arrived during its last run, `expected` being what the
    /// last run read; then gives both back to the reaction (or drops them if it was
    /// cancelled meanwhile). The caller set `running` and moved them out.
    /// `body` is set whenever nobody runs and the reaction is not cancelled.
    private func runUntilSettled(_ body: inout Unmanaged<Body>?, _ expected: inout [any DependencySource]) {
        var runs = 0
        while true {
            runs += 1
            if runs > Self.runLimit || (BatchContext.isActive && runsInThisFlush() > Self.runLimit) {
                stopRunaway(expected)
            }
            let reads = Self.run(body.unsafelyUnwrapped, expecting: expected)
            // The batch ended above: the closure's own sets are delivered, and a change
            // that reached this reaction meanwhile set `rerun`.
            if let sources = reads.sources {
                relink(to: sources)
                expected = sources
            }
            // A property read for the first time and set after the read (by the closure
            // itself, or by another thread) before the link with it existed: no
            // notification reached this reaction, which must run again.
            let missedChange = reads.changedSinceRead()
            lock.lock()
            if rerun || missedChange, !cancelled {
                rerun = false
                lock.unlock()
                continue
            }
            running = false
            rerun = false
            var dropped: Unmanaged<Body>?
            if cancelled {
                swap(&dropped, &body)   // released below, unlocked
            } else {
                swap(&body, &self.body)
                swap(&expected, &tracked)
            }
            lock.unlock()
            dropped?.release()
            return
        }
    }

    /// One run of `body`, as a batch, tracking what it reads. The caller holds `body`'s
    /// reference for the whole run.
    private static func run(_ body: Unmanaged<Body>, expecting expected: [any DependencySource]) -> DependencyTracking.TrackedReads {
        body._withUnsafeGuaranteedRef { body in
            BatchContext.batch { DependencyTracking.trackChanges(expecting: expected) { body.run() } }
        }
    }

    /// Counts a run in the flush under way on this thread (one that a delivery of the
    /// flush started), and returns the count so far; 0 outside a flush.
    private func runsInThisFlush() -> Int {
        guard let context = BatchContext.current, context.flushing else { return 0 }
        return lock.withLock { batchMark.countRun(in: context) }
    }

    /// Links with what the last run read, and leaves what it no longer reads. Only the
    /// running thread relinks; a cancel meanwhile detaches what it attached.
    private func relink(to sources: [any DependencySource]) {
        var missing: [any DependencySource] = []
        var dropped: [any DependencyLink] = []
        lock.lock()
        if cancelled {
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

        let attached = missing.map { ($0, $0.attach(self, role: .changes, root: ObjectIdentifier(self))) }
        var late: [any DependencyLink] = []
        lock.lock()
        if cancelled {
            late = attached.map { $0.1 }
        } else {
            for (source, link) in attached { links[ObjectIdentifier(source)] = link }
        }
        for link in late { link.retire() }
        lock.unlock()
        for link in late { link.detach() }
    }

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
        cancelled = true
        let body = self.body   // `nil` while a run holds it: that run drops it
        self.body = nil
        let links = Array(self.links.values)
        self.links = [:]
        tracked = []
        let delivery = self.delivery
        self.delivery = nil
        for link in links { link.retire() }
        lock.unlock()
        for link in links { link.detach() }
        delivery?.cancel()
        body?.release()
    }

    deinit {
        // Not cancelled (a reaction is released through its `AnyCancellable`, which
        // cancels it): the reference is still the reaction's.
        body?.release()
    }
}
