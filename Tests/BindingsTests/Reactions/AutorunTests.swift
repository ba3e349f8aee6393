import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// `autorun`: runs now and after any change of what it read, synchronously on the setting
// thread, once per batch; dependencies found again on each run.

/// A model notified by hand, whose getter reports its reads.
final class AutorunThermometer: KeyValueObservable {
    private var storage = 20.0
    var celsius: Double {
        get {
            willAccessValue(for: \.celsius)
            return storage
        }
        set {
            willChangeValue(for: \.celsius)
            storage = newValue
            didChangeValue(for: \.celsius)
        }
    }
}

/// A model that any thread may read and set: a lock guards its value, and it notifies
/// by hand (reporting its reads, so that `autorun` depends on it).
final class AutorunSharedCounter: KeyValueObservable, @unchecked Sendable {
    // `@unchecked Sendable`: `storage` is a `Locked`, which guards the value.
    private let storage = Locked(0)
    let observationAnchor = ObservationAnchor()
    var value: Int {
        get {
            willAccessValue(for: \.value)
            return storage.value
        }
        set {
            willChangeValue(for: \.value)
            storage.value = newValue
            didChangeValue(for: \.value)
        }
    }
}

/// Models that several threads may read and subscribe to at once (SPEC section 6: while
/// nobody sets them). `@unchecked Sendable`: the tests below set `trigger` from one thread
/// only, and only read `watched` from the others.
final class AutorunTrigger: KeyValueObservable, @unchecked Sendable {
    @Observed var on = false
}
final class AutorunWatched: KeyValueObservable, @unchecked Sendable {
    @Observed var value = 1
}

/// A model whose computed property reads an `ObservableValue` it holds.
final class ObsVolumeModel: KeyValueObservable {
    let volume: ObservableValue<Int>
    init(volume: ObservableValue<Int>) { self.volume = volume }
    var label: String { "volume \(volume.value)" }
}

@Suite("Reactions: autorun")
struct AutorunTests {
    @Test func runsNowAndAfterEachChangeOfWhatItRead() {
        let person = ObsPerson()
        var texts: [String] = []
        let reaction = autorun { texts.append("\(person.fullName) (\(person.count))") }
        #expect(texts == ["Ada Lovelace (0)"])
        person.firstName = "Grace"
        person.count = 2
        person.lastName = "Hopper"
        #expect(texts == ["Ada Lovelace (0)", "Grace Lovelace (0)", "Grace Lovelace (2)", "Grace Hopper (2)"])
        // Not read: no run.
        person.mood = .busy(1)
        #expect(texts.count == 4)
        withExtendedLifetime(reaction) {}
    }

    @Test func runsOncePerBatch() {
        let person = ObsPerson()
        var texts: [String] = []
        let reaction = autorun { texts.append(person.fullName) }
        batchChanges {
            person.firstName = "Grace"
            person.lastName = "Hopper"
        }
        #expect(texts == ["Ada Lovelace", "Grace Hopper"])
        withExtendedLifetime(reaction) {}
    }

    /// A subscription made inside a reaction, to a projection read before the last set,
    /// gets the property's value from its channel, which reads it through the property's
    /// getter. That read is the channel's, not the reaction's: the reaction does not come
    /// to depend on the property.
    @Test func aValueTheChannelReadsForAStaleProjectionIsNotADependency() {
        let person = ObsPerson()
        // `firstName`'s channel, made by a tracked read (of `fullName`'s getter).
        let names = person.publisher(for: \.fullName).sink { _ in }
        let projection = person.$firstName
        person.firstName = "Grace"   // the projection's value is now stale
        var received: [String] = []
        var runs = 0
        var subscription: AnyCancellable?
        let reaction = autorun {
            runs += 1
            _ = person.count
            if subscription == nil { subscription = projection.sink { received.append($0) } }
        }
        person.firstName = "Ada"
        #expect(received == ["Grace", "Ada"])
        #expect(runs == 1)
        withExtendedLifetime((names, reaction, subscription)) {}
    }

    /// An `ObservableValue` read is a dependency too (as MobX's and Bond's observables
    /// are): an update runs the reaction again, and in a batch once, at its end, with the
    /// models' changes (issue: its reads were not tracked).
    @Test func anObservableValueItReadsIsADependency() {
        let person = ObsPerson()
        let volume = ObservableValue(3)
        var texts: [String] = []
        let reaction = autorun { texts.append("\(person.name) \(volume.value)") }
        volume.update(4)
        #expect(texts == ["Ada 3", "Ada 4"])
        batchChanges {
            volume.update(5)
            person.name = "Grace"
            volume.update(6)
        }
        #expect(texts == ["Ada 3", "Ada 4", "Grace 6"])
        // A computed key path that reads it notifies its observers.
        let model = ObsVolumeModel(volume: volume)
        var labels: [String] = []
        let c = model.publisher(for: \.label).sink { labels.append($0) }
        volume.value = 7
        #expect(labels == ["volume 6", "volume 7"])
        withExtendedLifetime((reaction, c)) {}
    }

    @Test func aBranchThatStopsReadingAPropertyStopsDependingOnIt() {
        let person = ObsPerson()
        var texts: [String] = []
        let reaction = autorun { texts.append(person.useNickname ? (person.nickname ?? "-") : person.name) }
        person.nickname = "Countess"   // not read yet
        #expect(texts == ["Ada"])
        person.useNickname = true
        #expect(texts == ["Ada", "Countess"])
        person.name = "Augusta"   // no longer read
        person.nickname = "Lady"
        #expect(texts == ["Ada", "Countess", "Lady"])
        person.useNickname = false
        #expect(texts == ["Ada", "Countess", "Lady", "Augusta"])
        withExtendedLifetime(reaction) {}
    }

    @Test func followsANewObjectAfterAChainChanges() {
        let person = ObsPerson()
        let old = person.address
        var cities: [String] = []
        let reaction = autorun { cities.append(person.address.city) }
        person.address = ObsAddress("Paris")
        old.city = "Leeds"   // the old address is no longer read
        person.address.city = "Rome"
        #expect(cities == ["London", "Paris", "Rome"])
        withExtendedLifetime(reaction) {}
    }

    @Test func cancellingStopsTheRuns() {
        let person = ObsPerson()
        var counts: [Int] = []
        let reaction = autorun { counts.append(person.count) }
        person.count = 1
        reaction.cancel()
        person.count = 2
        #expect(counts == [0, 1])
    }

    @Test func releasingTheCancellableStopsTheRunsAndReleasesTheClosure() {
        let person = ObsPerson()
        let counts = LockedLog<Int>()
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            let reaction = autorun {
                canary.touch()
                counts.append(person.count)
            }
            person.count = 1
            withExtendedLifetime(reaction) {}
        }
        person.count = 2
        #expect(counts.items == [0, 1])
        #expect(weakCanary == nil)
    }

    @Test func cancelledFromItsOwnRunItFinishesThatRunThenReleasesTheClosure() {
        let person = ObsPerson()
        let counts = LockedLog<Int>()
        weak var weakCanary: Canary?
        let holder = Locked<AnyCancellable?>(nil)
        do {
            let canary = Canary()
            weakCanary = canary
            holder.value = autorun {
                canary.touch()
                counts.append(person.count)
                // The set below reaches the reaction while it runs (a rerun is asked
                // for); cancelling in the same run drops that rerun.
                if person.count == 1 {
                    person.count = 2
                    holder.value?.cancel()
                }
            }
        }
        person.count = 1
        #expect(counts.items == [0, 1])
        #expect(weakCanary == nil)
        person.count = 3
        #expect(counts.items == [0, 1])
        #expect(person.count == 3)
    }

    @Test func cancelledOnAnotherThreadDuringRunsItStopsAndReleasesTheClosureOnce() {
        // One thread sets a shared model (each set runs the reaction on that thread)
        // while another cancels: whichever holds the run when the cancel lands drops the
        // closure, exactly once, and no run starts after `cancel()` returns.
        for _ in 0..<200 {
            let counter = AutorunSharedCounter()
            let canaries = LiveCounter()
            let runs = Counter()
            let runsAtCancel = Locked(-1)
            let holder = Locked<AnyCancellable?>(nil)
            do {
                let canary = Canary(canaries)
                holder.value = autorun {
                    canary.touch()
                    _ = counter.value
                    _ = runs.increment()
                }
            }
            let reaction = holder.value!
            holder.value = nil
            runConcurrently([
                { for value in 1...50 { counter.value = value } },
                {
                    reaction.cancel()
                    runsAtCancel.value = runs.value
                },
            ])
            // A run under way at the cancel may finish, but none starts after it.
            let before = runs.value
            counter.value = 100
            #expect(runs.value == before)
            #expect(runs.value <= runsAtCancel.value + 1)
            #expect(canaries.created.value == 1)
            #expect(released { canaries.live == 0 })
            withExtendedLifetime(reaction) {}
        }
    }

    @Test func holdsNoModel() {
        weak var weakPerson: ObsPerson?
        var counts: [Int] = []
        var reaction: AnyCancellable?
        do {
            let person = ObsPerson()
            weakPerson = person
            reaction = autorun { [weak person] in counts.append(person?.count ?? -1) }
            person.count = 3
        }
        #expect(released { weakPerson == nil })
        #expect(counts == [0, 3])
        withExtendedLifetime(reaction) {}
    }

    @Test func aReactionThatSetsWhatItReadsRunsUntilTheValuesSettle() {
        let person = ObsPerson()
        var seen: [Int] = []
        let reaction = autorun {
            seen.append(person.count)
            if person.count < 5 { person.count += 1 }
        }
        #expect(seen == [0, 1, 2, 3, 4, 5])
        #expect(person.count == 5)
        person.count = 3
        #expect(seen == [0, 1, 2, 3, 4, 5, 3, 4, 5])
        withExtendedLifetime(reaction) {}
    }

    @Test func anInPlaceMutationIsAWriteNotARead() {
        let person = ObsPerson()
        var runs = 0
        let reaction = autorun {
            runs += 1
            person.tags.append("run")
        }
        person.tags = []
        #expect(runs == 1)
        #expect(person.tags == [])
        withExtendedLifetime(reaction) {}
    }

    @Test func itsOwnSetsReachOtherObserversOnceItReturns() {
        let person = ObsPerson()
        var log: [String] = []
        let token = person.observe(\.lastName, options: [.new]) { _, change in log.append("observer \(change.newValue!)") }
        let reaction = autorun {
            log.append("run \(person.firstName)")
            person.lastName = "of \(person.firstName)"
            log.append("set")
        }
        person.firstName = "Grace"
        #expect(log == ["run Ada", "set", "observer of Ada", "run Grace", "set", "observer of Grace"])
        withExtendedLifetime((token, reaction)) {}
    }

    @Test func dependsOnHandNotifiedPropertiesThatReportTheirReads() {
        let thermometer = AutorunThermometer()
        var readings: [Double] = []
        let reaction = autorun { readings.append(thermometer.celsius) }
        thermometer.celsius = 25
        thermometer.celsius = 30
        #expect(readings == [20, 25, 30])
        withExtendedLifetime(reaction) {}
    }

    @Test func runsOnTheThreadOfTheSet() {
        let person = UncheckedBox(ObsPerson())
        let me = DeliveryContext.current
        let onThisThread = LockedLog<Bool>()
        let counts = LockedLog<Int>()
        let reaction = autorun {
            counts.append(person.value.count)
            onThisThread.append(me.isCurrentThread)
        }
        runOnAnotherThread { person.value.count = 1 }
        // Synchronously: done when the set returned.
        #expect(counts.items == [0, 1])
        #expect(onThisThread.items == [true, false])
        withExtendedLifetime(reaction) {}
    }

    @Test func changesFromTwoThreadsNeverRunItTwiceAtOnce() {
        // Models that are safe to share (a lock guards the value, and the getter reports
        // its reads), so that the reaction may read one while another thread sets it.
        let counters = [AutorunSharedCounter(), AutorunSharedCounter()]
        let overlaps = OverlapDetector()
        let runs = Counter()
        let last = Locked("")
        let reaction = autorun {
            overlaps.watch {
                last.value = "\(counters[0].value) \(counters[1].value)"
            }
            _ = runs.increment(ordering: .relaxed)
        }
        runConcurrently(threads: 2) { index in
            for value in 1...500 { counters[index].value = value }
        }
        #expect(overlaps.overlaps == 0)
        #expect(runs.value >= 2)
        // Never stale: the last run saw both last values.
        #expect(last.value == "500 500")
        withExtendedLifetime(reaction) {}
    }

    /// A run that a set of one model starts reads another model for the first time just
    /// after another thread subscribed to it, making the channel the read looks up: the
    /// run finds that channel and depends on it, and a later set reaches both through it.
    /// (Only the set model's reads skip the creation lock; the test below checks which
    /// reads do.)
    @Test func aRunDependsOnAModelAnotherThreadJustSubscribedTo() {
        for _ in 0..<50 {
            let trigger = AutorunTrigger()
            let watched = AutorunWatched()
            let seen = LockedLog<Int>()
            let sunk = LockedLog<Int>()
            // Made, set and subscribed to from nonisolated code, so that the runs and the
            // sink are on the threads of the sets.
            let reaction = Locked<AnyCancellable?>(nil)
            let subscribed = Locked<AnyCancellable?>(nil)
            runOnAnotherThread { reaction.value = autorun { seen.append(trigger.on ? watched.value : 0) } }
            // The set waits until the subscription has made the channel, through a counter
            // bumped with relaxed ordering (so that only the creation lock orders the run's
            // look-up after the channel was made).
            let made = Counter()
            runConcurrently([
                {
                    while made.value == 0 { sched_yield() }
                    trigger.on = true   // the run reads `watched.value` for the first time
                },
                {
                    subscribed.value = watched.$value.sink { sunk.append($0) }
                    _ = made.increment(ordering: .relaxed)
                },
            ])
            #expect(seen.items == [0, 1])
            runOnAnotherThread { watched.value = 2 }   // the run linked with `watched.value`
            #expect(seen.items == [0, 1, 2])
            #expect(sunk.items == [1, 2])   // one channel: the sink's and the run's
            withExtendedLifetime((reaction.value, subscribed.value)) {}
        }
    }

    /// Which tracked reads skip the creation lock: during a run that a set starts on its
    /// thread, the reads of the set model (nobody else subscribes to it meanwhile, SPEC
    /// section 6); never those of another model, nor during the first run or a batch's
    /// flush.
    @Test func onlyTheSetModelsReadsSkipTheCreationLock() {
        let trigger = AutorunTrigger()
        let watched = AutorunWatched()
        let trusted = LockedLog<[Bool]>()
        let reaction = Locked<AnyCancellable?>(nil)
        runOnAnotherThread {
            reaction.value = autorun {
                _ = trigger.on
                _ = watched.value
                guard let session = DependencyTracking.currentSession else { return }
                trusted.append([
                    DependencyTracking.trusts(ObjectIdentifier(trigger), session: session),
                    DependencyTracking.trusts(ObjectIdentifier(watched), session: session),
                ])
            }
            trigger.on = true
            watched.value = 2
            batchChanges { trigger.on = false }
        }
        #expect(trusted.items == [[false, false], [true, false], [false, true], [false, false]])
        withExtendedLifetime(reaction.value) {}
    }

    @MainActor @Test func madeOnTheMainActorItRunsOnTheMainThreadOnly() async {
        let person = UncheckedBox(ObsPerson())
        var counts: [Int] = []
        let reaction = autorun {
            MainActor.assertIsolated()
            counts.append(person.value.count)
        }
        await Task.detached { person.value.count = 1 }.value
        await drainMainQueue()
        #expect(counts == [0, 1])
        withExtendedLifetime(reaction) {}
    }
}

@Suite("Reliability: a runaway autorun stops with a message")
struct RelAutorunExitTests {
    @Test func aReactionThatNeverSettlesStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let person = ObsPerson()
            let reaction = autorun { person.count = person.count + 1 }
            withExtendedLifetime(reaction) {}
        }
        let message = standardError(of: result)
        #expect(message.contains("autorun ran 100 times in one flush of changes"))
        #expect(message.contains("ObsPerson.count"))
    }

    @Test func aReactionThatNeverSettlesInABatchsFlushStops() async {
        // Started by a batch's flush, the reaction sets what it reads; each of its sets
        // joins the flush, which runs it again.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let person = ObsPerson()
            let reaction = autorun {
                if person.name == "go" { person.count = person.count + 1 } else { _ = person.count }
            }
            batchChanges { person.name = "go" }
            withExtendedLifetime(reaction) {}
        }
        let message = standardError(of: result)
        #expect(message.contains("autorun ran 100 times in one flush of changes"))
        #expect(message.contains("ObsPerson.count"))
    }

    @Test func twoReactionsFeedingEachOtherForeverInABatchsFlushStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let person = ObsPerson()
            let up = autorun { if person.name == "go" { person.plain = person.count; person.lastName = "\(person.count)" } }
            let down = autorun { if person.name == "go" { person.count = (Int(person.lastName) ?? 0) + 1 } }
            batchChanges { person.name = "go" }
            withExtendedLifetime((up, down)) {}
        }
        #expect(standardError(of: result).contains("autorun ran 100 times in one flush of changes"))
    }

    @Test func aReactionThatOnlyReadsRunsForEachSetOfAnObserverInAFlush() async {
        // An observer counts a property down from 150 in one flush; the reaction reads
        // it, changes nothing, and runs for each value: no limit applies.
        await #expect(processExitsWith: .success) {
            let person = ObsPerson()
            var runs: [Int] = []
            let reaction = autorun { runs.append(person.count) }
            let countdown = person.observe(\.count, options: [.new]) { person, change in
                if change.newValue! > 0 { person.count = change.newValue! - 1 }
            }
            batchChanges { person.count = 150 }
            precondition(person.count == 0)
            precondition(runs == [0] + Array((0...150).reversed()), "runs: \(runs)")
            withExtendedLifetime((reaction, countdown)) {}
        }
    }

    @Test func aReactionThatReadsWhatAnotherSetsAtEachStepOfACountdownIsNotStopped() async {
        // An observer counts down from 150 in one flush; one reaction writes what a
        // second one reads, at each step. Each chain of runs is two long (the writer's
        // change runs the reader, which changes nothing): neither is a runaway, though
        // the reader runs 151 times for changes that a reaction made.
        await #expect(processExitsWith: .success) {
            let person = ObsPerson()
            let writer = autorun { person.lastName = "\(person.count)" }
            var seen: [String] = []
            let reader = autorun { seen.append(person.lastName) }
            let countdown = person.observe(\.count, options: [.new]) { person, change in
                if change.newValue! > 0 { person.count = change.newValue! - 1 }
            }
            batchChanges { person.count = 150 }
            precondition(person.count == 0 && person.lastName == "0", "\(person.count) \(person.lastName)")
            precondition(seen == ["0"] + (0...150).reversed().map(String.init), "seen: \(seen)")
            withExtendedLifetime((writer, reader, countdown)) {}
        }
    }
}
