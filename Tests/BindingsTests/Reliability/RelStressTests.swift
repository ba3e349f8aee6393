import BindingsTestSupport
import Synchronization
import Testing
@testable import Bindings
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SPEC section 6 under load: eight threads doing random mixes of subscribe, cancel,
/// invalidate, bind, release owner and set, on models each confined to one thread and on
/// shared `ObservableValue`s and a shared `CurrentValueSubject`, with exact counts and
/// "never stale" checked when the threads are done, and every object accounted for after
/// teardown. Each test stops at a fixed operation count or a time cap, whichever comes
/// first, so that it stays bounded under the sanitizers.
@Suite("Reliability: stress", .serialized)
struct RelStressTests {
    /// Operations per thread, and the time cap of one run.
    static let operationsPerThread = 6_000
    static let timeCap = 2.5

    /// The counts of each kind of operation, for the figures.
    final class Stats: Sendable {
        let subscribe = Atomic<Int>(0)
        let cancel = Atomic<Int>(0)
        let invalidate = Atomic<Int>(0)
        let bind = Atomic<Int>(0)
        let releaseOwner = Atomic<Int>(0)
        let set = Atomic<Int>(0)
        let update = Atomic<Int>(0)
        let releaseModel = Atomic<Int>(0)

        var total: Int {
            subscribe.load(ordering: .relaxed) + cancel.load(ordering: .relaxed)
                + invalidate.load(ordering: .relaxed) + bind.load(ordering: .relaxed)
                + releaseOwner.load(ordering: .relaxed) + set.load(ordering: .relaxed)
                + update.load(ordering: .relaxed) + releaseModel.load(ordering: .relaxed)
        }

        var summary: String {
            "subscribe \(subscribe.load(ordering: .relaxed)), cancel \(cancel.load(ordering: .relaxed)), "
                + "invalidate \(invalidate.load(ordering: .relaxed)), bind \(bind.load(ordering: .relaxed)), "
                + "release owner \(releaseOwner.load(ordering: .relaxed)), set \(set.load(ordering: .relaxed)), "
                + "update shared \(update.load(ordering: .relaxed)), release model \(releaseModel.load(ordering: .relaxed))"
        }
    }

    /// A model with the observer that stays on its `a` for the model's whole life, and the
    /// number of sets of `a`, which that observer must match exactly.
    struct Homed {
        let model: RelStressModel
        let resident: AnyCancellable
        let residentProbe: RelStressProbe
        var setsOfA = 0
    }

    /// Everything the threads share.
    final class World: @unchecked Sendable {
        // `@unchecked Sendable`: the shared values and subject are thread-safe; everything
        // mutable is behind a `Locked`.
        let values = [ObservableValue(RelStressSetup.encode(thread: 0, seq: 0)),
                      ObservableValue(RelStressSetup.encode(thread: 0, seq: 0))]
        let subject = CurrentValueSubject<Int, Never>(RelStressSetup.encode(thread: 0, seq: 0))
        let pool = Locked<[RelStressHandle]>([])
        let owners = Locked<[RelStressOwner]>([])
        let probes = Locked<[RelStressProbe]>([])
        let failures = Locked<[String]>([])
        /// Per shared target (two values, then the subject) and thread: the number of
        /// updates, and the sequence number of the last (the initial value is thread 0's 0).
        let updateCounts = Locked<[[Int]]>(Array(repeating: Array(repeating: 0, count: RelStressSetup.threads), count: 3))
        let lastSeq = Locked<[[Int]]>(Array(
            repeating: [0] + Array(repeating: -1, count: RelStressSetup.threads - 1), count: 3))
        /// Each thread's models at the end, handed to the checking thread.
        let finalModels = Locked<[Homed]>([])
        let models = LiveCounter()
        let ownerCounter = LiveCounter()
        let canaries = LiveCounter()
        let stats = Stats()

        func fail(_ message: String) { failures.withLock { $0.append(message) } }

        func probe(_ target: RelStressProbe.Target, _ model: RelStressModel?) -> RelStressProbe {
            let probe = RelStressProbe(target: target, model: model)
            probes.withLock { $0.append(probe) }
            return probe
        }
    }

    @Test func eightThreadsMixingEveryOperation() {
        let world = World()
        // Observers that stay for the whole run: they must receive every update, in order.
        var permanent: [(RelStressProbe, Any)] = []
        for index in world.values.indices {
            let probe = world.probe(.shared(index), nil)
            permanent.append((probe, world.values[index].sink { probe.record($0) }))
            let listener = RelStressListener()
            let listened = world.probe(.shared(index), nil)
            world.values[index].bind(listener) { _, value in listened.record(value) }
            permanent.append((listened, listener))
        }
        let subjectProbe = world.probe(.subject, nil)
        permanent.append((subjectProbe, world.subject.sink { subjectProbe.record($0) }))

        let deadline = RelDeadline(seconds: Self.timeCap)
        let seed = UInt64(RelEnvironment.variable("REL_STRESS_SEED") ?? "") ?? 0x5EED
        runConcurrently(threads: RelStressSetup.threads) { thread in
            Self.work(thread: thread, world: world, deadline: deadline, seed: seed)
        }
        let seconds = deadline.elapsedSeconds

        // Exact counts: the permanent observers saw every update, each thread's in order.
        let updates = world.updateCounts.value
        let lastSeq = world.lastSeq.value
        for (probe, _) in permanent {
            let state = probe.state.value
            let column: Int
            let current: Int
            switch probe.target {
            case .shared(let index):
                column = index
                current = world.values[index].value
            default:
                column = 2
                current = world.subject.value
            }
            #expect(state.count == 1 + updates[column].reduce(0, +), "a permanent observer missed or repeated a value")
            for thread in 0..<RelStressSetup.threads {
                #expect(state.lastPerThread[thread] == lastSeq[column][thread], "thread \(thread)'s last value did not arrive last")
            }
            #expect(state.last == current, "stale permanent observer")
            #expect(state.disorder == 0)
        }
        checkProbes(world)
        checkOwners(world)
        let failures = world.failures.value
        #expect(failures.isEmpty, "\(failures.prefix(10))")

        // Teardown: end every handle, then everything must be gone.
        teardown(world)
        for (index, value) in world.values.enumerated() {
            #expect(value.channel.observerCount == 2, "shared value \(index) kept an ended observer")
        }
        #expect(world.subject.core.channel.observerCount == 1)
        permanent.removeAll()
        for value in world.values { #expect(value.channel.observerCount == 1) }   // the listeners go at the next value
        #expect(world.subject.core.channel.observerCount == 0)
        #expect(world.models.live == 0, "models leaked: \(world.models.live)")
        #expect(world.ownerCounter.live == 0, "owners leaked: \(world.ownerCounter.live)")
        #expect(world.canaries.live == 0, "captured objects leaked: \(world.canaries.live) of \(world.canaries.created.value)")

        let total = world.stats.total
        #expect(total >= RelStressSetup.threads * 100, "too few operations ran to prove anything")
        RelEnvironment.report(
            "stress mixed: \(total) operations on \(RelStressSetup.threads) threads in "
                + "\(String(format3: seconds)) s (\(world.stats.summary)); models \(world.models.created.value), "
                + "owners \(world.ownerCounter.created.value), observers \(world.probes.value.count)")
    }

    /// Observations of computed and chained key paths, made on their model's thread and
    /// ended on seven others while the model is being set: each end races a delivery, and
    /// every dependency link must still be gone at the end (no derived observation left
    /// registered on the model).
    @Test func derivedObservationsEndedOnOtherThreadsLeaveNothingBehind() {
        let models = LiveCounter()
        let canaries = LiveCounter()
        let pool = Locked<[AnyObject]>([])
        let made = Atomic<Int>(0)
        let ended = Atomic<Int>(0)
        let sets = Atomic<Int>(0)
        let homeDone = Atomic<Bool>(false)
        let deadline = RelDeadline(seconds: Self.timeCap)
        let failures = Locked<[String]>([])
        runConcurrently(threads: RelStressSetup.threads) { thread in
            if thread == 0 {
                let model = RelStressModel(counter: models)
                var operations = 0
                while operations < Self.operationsPerThread * 2, !deadline.passed {
                    operations += 1
                    if pool.withLock({ $0.count }) < 64 {
                        let canary = Canary(canaries)
                        let handle: AnyObject
                        switch operations % 4 {
                        case 0: handle = model.publisher(for: \.sum).sink { _ in canary.touch() }
                        case 1: handle = model.observe(\.child.x, options: [.new]) { _, _ in canary.touch() }
                        case 2: handle = model.reactive.pick.sink { _ in canary.touch() }
                        default:
                            let owner = RelStressOwner(counter: LiveCounter(), sharedIndex: 0)
                            owner.reactive.lastA <~ model.reactive.sum.handleEvents(receiveOutput: { _ in canary.touch() })
                            handle = owner
                        }
                        made.add(1, ordering: .relaxed)
                        pool.append(consume handle)
                    }
                    switch operations % 5 {
                    case 0: model.child = RelStressChild(x: model.next())
                    case 1: model.flag.toggle()
                    case 2: model.child.x = model.next()
                    default: model.a = model.next()
                    }
                    sets.add(1, ordering: .relaxed)
                }
                homeDone.store(true, ordering: .releasing)
                // Wait until the other threads have ended everything (a handle leaves the
                // pool before it is ended), then check on the home thread.
                while ended.load(ordering: .acquiring) < made.load(ordering: .relaxed) { sched_yield() }
                model.touchEveryDependency()   // idle observations leave at the next change
                let counts = [model.$a.channel.observerCount, model.$b.channel.observerCount,
                              model.$flag.channel.observerCount, model.$child.channel.observerCount,
                              model.child.$x.channel.observerCount]
                if counts != [0, 0, 0, 0, 0] {
                    failures.withLock { $0.append("dependency links left on a, b, flag, child, child.x: \(counts)") }
                }
            } else {
                var random = RelRandom(seed: UInt64(thread))
                while true {
                    let taken: AnyObject? = pool.withLock { pool in
                        pool.isEmpty ? nil : pool.remove(at: random.below(pool.count))
                    }
                    guard let handle = consume taken else {
                        if homeDone.load(ordering: .acquiring) { break }
                        sched_yield()   // two cores: let the home thread run
                        continue
                    }
                    switch handle {
                    case let cancellable as AnyCancellable where random.chance(50): cancellable.cancel()
                    case let token as KeyValueObservation where random.chance(50): token.invalidate()
                    default: break
                    }
                    Self.release(consume handle)   // on this thread, before it counts as ended
                    ended.add(1, ordering: .releasing)
                }
            }
        }
        #expect(failures.value.isEmpty, "\(failures.value)")
        #expect(made.load(ordering: .relaxed) == ended.load(ordering: .relaxed))
        #expect(models.live == 0)
        #expect(canaries.live == 0, "closures of ended observations still alive: \(canaries.live)")
        RelEnvironment.report(
            "stress derived teardown: \(made.load(ordering: .relaxed)) observations made, \(ended.load(ordering: .relaxed)) "
                + "ended on other threads, \(sets.load(ordering: .relaxed)) sets, in \(String(format3: deadline.elapsedSeconds)) s")
    }

    /// Callbacks that take a lock of their own, while other threads hold that lock and
    /// cancel, subscribe and update: the library holds no lock while it calls user code, so
    /// nothing deadlocks. A watchdog stops the process with a message if it ever hangs.
    @Test func callbacksTakingTheirOwnLocksDoNotDeadlock() {
        let userLock = Lock()
        let value = ObservableValue(0)
        let subject = PassthroughSubject<Int, Never>()
        let pool = Locked<[AnyCancellable]>([])
        let received = Atomic<Int>(0)
        let operations = Atomic<Int>(0)
        let deadline = RelDeadline(seconds: Self.timeCap)
        let watchdog = RelWatchdog(seconds: 120, what: "callbacksTakingTheirOwnLocksDoNotDeadlock")
        runConcurrently(threads: RelStressSetup.threads) { thread in
            var random = RelRandom(seed: 0xD1 &+ UInt64(thread))
            var count = 0
            while count < Self.operationsPerThread, !deadline.passed {
                count += 1
                switch random.below(4) {
                case 0:
                    value.update(count)
                    subject.send(count)
                case 1 where pool.withLock({ $0.count }) < 200:
                    // Subscribing delivers the current value here: not while holding the lock.
                    let token = value.sink { _ in
                        userLock.withLock { _ = received.add(1, ordering: .relaxed) }
                    }
                    let other = subject.sink { _ in
                        userLock.withLock { _ = received.add(1, ordering: .relaxed) }
                    }
                    pool.withLock { $0.append(contentsOf: [token, other]) }
                default:
                    // Cancel while holding the lock that callbacks on other threads wait for.
                    let token = pool.withLock { $0.isEmpty ? nil : $0.removeLast() }
                    userLock.withLock { token?.cancel() }
                }
            }
            operations.add(count, ordering: .relaxed)
        }
        watchdog.finish()
        pool.withLock { $0.removeAll() }
        #expect(value.channel.observerCount == 0)
        #expect(subject.core.channel.observerCount == 0)
        #expect(received.load(ordering: .relaxed) > 0)
        RelEnvironment.report(
            "stress own locks: \(operations.load(ordering: .relaxed)) operations, \(received.load(ordering: .relaxed)) "
                + "callbacks under a user lock, no deadlock, in \(String(format3: deadline.elapsedSeconds)) s")
    }

    // MARK: One thread's work

    static func work(thread: Int, world: World, deadline: RelDeadline, seed: UInt64) {
        var random = RelRandom(seed: seed &+ UInt64(thread) &* 0x9E37_79B9)
        var homed = (0..<2).map { _ in makeHomed(world) }
        var sharedSeq = 0
        var operations = 0
        while operations < operationsPerThread, !deadline.passed {
            operations += 1
            let roll = random.below(100)
            let poolSize = world.pool.withLock { $0.count }
            if roll < 28 {
                let index = random.below(homed.count)
                set(&homed[index], random: &random)
                world.stats.set.add(1, ordering: .relaxed)
            } else if roll < 38 {
                sharedSeq += 1
                let value = RelStressSetup.encode(thread: thread, seq: sharedSeq)
                let target = random.below(3)
                // Counted first: a thread's updates all land before the checks run.
                world.updateCounts.withLock { $0[target][thread] += 1 }
                world.lastSeq.withLock { $0[target][thread] = sharedSeq }
                if target < 2 { world.values[target].update(value) } else { world.subject.send(value) }
                world.stats.update.add(1, ordering: .relaxed)
            } else if roll < 58, poolSize < 300 {
                subscribeToModel(homed[random.below(homed.count)].model, world: world, random: &random)
                world.stats.subscribe.add(1, ordering: .relaxed)
            } else if roll < 66, poolSize < 300 {
                subscribeToShared(world: world, random: &random)
                world.stats.subscribe.add(1, ordering: .relaxed)
            } else if roll < 88 {
                endOneHandle(world: world, random: &random)
            } else if roll < 94 {
                bindOwner(to: homed[random.below(homed.count)].model, world: world, random: &random)
                world.stats.bind.add(1, ordering: .relaxed)
            } else if roll < 99 {
                let owner: RelStressOwner? = world.owners.withLock { owners in
                    owners.isEmpty ? nil : owners.remove(at: random.below(owners.count))
                }
                if owner != nil { world.stats.releaseOwner.add(1, ordering: .relaxed) }
                // Released here, on whichever thread took it, while its model is set elsewhere.
            } else {
                let index = random.below(homed.count)
                checkResident(homed[index], world: world)
                homed[index] = makeHomed(world)   // the old model deinitialises here, observed
                world.stats.releaseModel.add(1, ordering: .relaxed)
            }
        }
        for entry in homed { checkResident(entry, world: world) }
        world.finalModels.withLock { $0.append(contentsOf: homed) }
    }

    static func makeHomed(_ world: World) -> Homed {
        let model = RelStressModel(counter: world.models)
        let probe = world.probe(.model(.a), model)
        let canary = Canary(world.canaries)
        let resident = model.$a.sink { value in
            canary.touch()
            probe.record(value)
        }
        return Homed(model: model, resident: resident, residentProbe: probe)
    }

    static func checkResident(_ homed: Homed, world: World) {
        let state = homed.residentProbe.state.value
        if state.count != 1 + homed.setsOfA || state.last != homed.model.a || state.disorder != 0 {
            world.fail("resident observer of a: \(state.count) values for \(homed.setsOfA) sets, last \(state.last), a \(homed.model.a)")
        }
    }

    static func set(_ homed: inout Homed, random: inout RelRandom) {
        let model = homed.model
        switch random.below(7) {
        case 0, 1:
            model.a = model.next()
            homed.setsOfA += 1
        case 2, 3: model.b = model.next()
        case 4: model.flag.toggle()
        case 5: model.child.x = model.next()
        default: model.child = RelStressChild(x: model.next())   // the chain re-subscribes
        }
    }

    static func subscribeToModel(_ model: RelStressModel, world: World, random: inout RelRandom) {
        let key = RelStressKey.allCases[random.below(RelStressKey.allCases.count)]
        let probe = world.probe(.model(key), model)
        let canary = Canary(world.canaries)
        let handle: RelStressHandle
        let way = random.below(5)
        probe.state.withLock { $0.how = ["publisher.sink", "observe", "publisher.removeDuplicates.map.sink", "$a.sink setting echo", "reactive.sink"][way == 3 && key != .a ? 4 : way] }
        switch way {
        case 0:
            handle = .cancellable(model.publisher(for: key.keyPath).sink { value in
                canary.touch()
                probe.record(value)
            }, probe)
        case 1:
            handle = .token(model.observe(key.keyPath, options: [.initial, .new]) { _, change in
                canary.touch()
                probe.record(change.newValue!)
            }, probe)
        case 2:
            handle = .cancellable(model.publisher(for: key.keyPath).removeDuplicates().map { $0 }.sink { value in
                canary.touch()
                probe.record(value)
            }, probe)
        case 3 where key == .a:
            // A callback that sets another property of the same model (re-entrancy).
            handle = .cancellable(model.$a.sink { [weak model] value in
                canary.touch()
                probe.record(value)
                if let model { model.echo = model.next() }
            }, probe)
        default:
            handle = .cancellable(model.reactive[dynamicMember: key.keyPath].sink { value in
                canary.touch()
                probe.record(value)
            }, probe)
        }
        world.pool.append(consume handle)
    }

    static func subscribeToShared(world: World, random: inout RelRandom) {
        let canary = Canary(world.canaries)
        let choice = random.below(4)
        if choice == 3 {
            let probe = world.probe(.subject, nil)
            let cancellable = world.subject.sink { value in
                canary.touch()
                probe.record(value)
            }
            world.pool.append(RelStressHandle.cancellable(consume cancellable, probe))
            return
        }
        let index = random.below(world.values.count)
        let value = world.values[index]
        let probe = world.probe(.shared(index), nil)
        let handle: RelStressHandle
        probe.state.withLock { $0.how = ["sink", "listener", "map.filter.sink"][choice] }
        switch choice {
        case 0:
            handle = .cancellable(value.sink { received in
                canary.touch()
                probe.record(received)
            }, probe)
        case 1:
            let listener = RelStressListener()
            value.bind(listener) { _, received in
                canary.touch()
                probe.record(received)
            }
            handle = .listener(listener, value, probe)
        default:
            handle = .cancellable(value.map { $0 }.filter { _ in true }.sink { received in
                canary.touch()
                probe.record(received)
            }, probe)
        }
        world.pool.append(consume handle)
    }

    static func bindOwner(to model: RelStressModel, world: World, random: inout RelRandom) {
        let index = random.below(world.values.count)
        let owner = RelStressOwner(counter: world.ownerCounter, sharedIndex: index)
        owner.model = model
        let canary = Canary(world.canaries)
        owner.reactive.lastA <~ model.reactive.a
        world.values[index].bind(to: owner) { owner, value in
            canary.touch()
            owner.lastShared = value
        }
        world.owners.append(consume owner)
    }

    /// Takes one handle made by any thread and ends it, in one of the ways a user would:
    /// release, cancel or invalidate (once or twice), unbind.
    static func endOneHandle(world: World, random: inout RelRandom) {
        let taken = world.pool.withLock { pool -> (RelStressHandle, probe: RelStressProbe, isToken: Bool, isListener: Bool)? in
            guard !pool.isEmpty else { return nil }
            let handle = pool.remove(at: random.below(pool.count))
            return (handle, handle.probe, handle.isToken, handle.isListener)
        }
        guard let (handle, probe, isToken, isListener) = consume taken else { return }
        // A released listener is only dropped at the next value; listeners are unbound.
        let way = isListener ? 1 + random.below(2) : random.below(3)
        if way != 0 { handle.end(twice: way == 2) }
        release(consume handle)   // with way 0, its deinit is what ends it
        probe.markCancelled(way: way)
        if isToken {
            world.stats.invalidate.add(1, ordering: .relaxed)
        } else {
            world.stats.cancel.add(1, ordering: .relaxed)
        }
    }

    /// Drops what may be the last reference to a handle, so that with way 0 its deinit
    /// ends the observation before this returns. Swift promises an object lives at
    /// least to its last use, not that it goes at the statement that drops it: written
    /// as `handle = nil` after copies of `handle` were read, a release build kept the
    /// handle alive past `markCancelled`, and the test reported the deliveries that
    /// followed as late. A consumed argument is destroyed before the call returns.
    @inline(never)
    static func release<Handle>(_ handle: consuming Handle) {}

    // MARK: Checks

    /// Every observer still attached ends with its target's current value; one that was
    /// ended got at most the value that was in flight when it ended.
    func checkProbes(_ world: World) {
        var stale = 0
        var disorder = 0
        var lateDeliveries = 0
        var checked = 0
        var details: [String] = []
        for probe in world.probes.value {
            let state = probe.state.value
            disorder += state.disorder
            if state.disorder > 0 || (state.cancelled && state.count - state.countAtCancel > 1) {
                details.append("\(probe.target) via \(state.how): recent \(state.recent), received \(state.count - state.countAtCancel) after cancel: \(state.afterCancel)")
            }
            if state.cancelled {
                if state.count - state.countAtCancel > 1 { lateDeliveries += 1 }
                continue
            }
            let current: Int
            switch probe.target {
            case .model(let key):
                guard let model = probe.model else { continue }   // its model was released
                current = key.value(of: model)
            case .shared(let index):
                current = world.values[index].value
            case .subject:
                current = world.subject.value
            }
            checked += 1
            if state.last != current { stale += 1 }
        }
        #expect(stale == 0, "\(stale) of \(checked) attached observers ended stale")
        #expect(disorder == 0, "\(disorder) values arrived out of order")
        #expect(lateDeliveries == 0, "\(lateDeliveries) observers received more than the in-flight value after cancel() returned")
        #expect(details.isEmpty, "\(details.prefix(5))")
    }

    func checkOwners(_ world: World) {
        for owner in world.owners.value {
            if let model = owner.model {
                #expect(owner.lastA == model.a, "a bound owner ended stale")
            }
            #expect(owner.lastShared == world.values[owner.sharedIndex].value, "an owner bound to a shared value ended stale")
        }
    }

    /// Ends every handle and owner, then checks that the remaining models have nothing
    /// attached but their resident observer, and releases them.
    func teardown(_ world: World) {
        let handles = world.pool.withLock { pool in
            defer { pool.removeAll() }
            return pool
        }
        for handle in handles {
            if case .listener(let listener, let value, _) = handle { value.unbind(listener) }
        }
        _ = consume handles
        world.owners.withLock { $0.removeAll() }
        let homed = world.finalModels.withLock { models in
            defer { models.removeAll() }
            return models
        }
        for entry in homed {
            let model = entry.model
            model.touchEveryDependency()   // idle observations leave at the next change
            #expect(model.$a.channel.observerCount == 1, "a: observers left behind")
            for (name, count) in [
                ("b", model.$b.channel.observerCount), ("flag", model.$flag.channel.observerCount),
                ("echo", model.$echo.channel.observerCount), ("child", model.$child.channel.observerCount),
                ("child.x", model.child.$x.channel.observerCount),
            ] {
                #expect(count == 0, "\(name): \(count) observers left behind after every handle ended")
            }
        }
    }
}

extension String {
    /// A number with three decimals, without Foundation.
    init(format3 value: Double) {
        let thousandths = Int((value * 1_000).rounded())
        let fraction = String(thousandths % 1_000)
        self = "\(thousandths / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
