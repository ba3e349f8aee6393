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

    private let lock = Lock()
    private var body: (() -> Void)?
    private var links: [ObjectIdentifier: any DependencyLink] = [:]
    /// What the last run read, in order: the next run expects the same reads, and then
    /// allocates nothing and leaves the links alone.
    private var tracked: [any DependencySource] = []
    private var running = false
    private var rerun = false
    /// Its evaluations and runs in the current flush of a batch.
    @exclusivity(unchecked) private var batchMark = BatchMark()
    /// Set in `start`, before the reaction is shared.
    private var schedule = Schedule.inline
    /// The actor delivery, stopped with the reaction.
    private var delivery: (any StoppableDelivery)?

    private init(_ body: @escaping () -> Void) {
        self.body = body
    }

    /// Makes the reaction for a closure made on `isolation` and runs it once, now.
    static func start(isolation: isolated (any Actor)?, _ body: @escaping () -> Void) -> Reaction {
        let reaction = Reaction(body)
        if CallerIsolation.isMainActor(isolation) {
            reaction.schedule = .mainActor
        } else if isolation != nil {
            let (delivery, deliver) = ActorDelivery<Void>.make(on: isolation) { [weak reaction] in
                reaction?.trigger()
            }
            reaction.delivery = delivery
            reaction.schedule = .actor(deliver)
        }
        reaction.lock.withLock { reaction.running = true }
        reaction.runUntilSettled()
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
        guard body != nil else {
            lock.unlock()
            return
        }
        if running {
            rerun = true
            lock.unlock()
            return
        }
        running = true
        lock.unlock()
        runUntilSettled()
    }

    /// Runs the closure until no change arrived during its last run. The caller set
    /// `running`.
    private func runUntilSettled() {
        var runs = 0
        while true {
            runs += 1
            if runs > Self.runLimit || runsInThisFlush() > Self.runLimit { stopRunaway() }
            lock.lock()
            let body = self.body
            let expected = tracked
            lock.unlock()
            guard let body else { break }
            let outermost = BatchContext.enter()
            let (sources, changedSinceRead) = DependencyTracking.trackChanges(expecting: expected, body)
            if let sources { relink(to: sources) }
            // A property read for the first time and set after the read (by the closure
            // itself, or by another thread) before the link with it existed: no
            // notification reached this reaction, which must run again.
            let missedChange = changedSinceRead()
            // Delivers the closure's own sets, which may ask for another run.
            BatchContext.exit(outermost: outermost)
            lock.lock()
            if rerun || missedChange, self.body != nil {
                rerun = false
                lock.unlock()
                continue
            }
            lock.unlock()
            break
        }
        lock.withLock {
            running = false
            rerun = false
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
        guard body != nil else {
            lock.unlock()
            return
        }
        tracked = sources
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
        if body == nil {
            late = attached.map { $0.1 }
        } else {
            for (source, link) in attached { links[ObjectIdentifier(source)] = link }
        }
        for link in late { link.retire() }
        lock.unlock()
        for link in late { link.detach() }
    }

    /// Stops the program: the closure keeps changing what it reads.
    private func stopRunaway() -> Never {
        let keys = lock.withLock { tracked }.map(\.sourceName)
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
        let body = self.body
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
        withExtendedLifetime(body) {}
    }
}
