import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

/// A model whose property an upstream is assigned to.
final class OpsBThermostat: KeyValueObservable {
    @Observed var temperature = 20
    @Observed var label = "off"
    var temperatureStorage: Observed<Int> { _temperature }
    /// The `assign(to:)` subscriptions running into `temperature`.
    var temperatureAssignments: [any Cancellable & AnyObject] {
        _temperature.anchor?.assignmentList.running ?? []
    }
}

/// A model that assigns a publisher to its own property for as long as it lives.
final class OpsBClock: KeyValueObservable {
    @Observed var seconds = 0

    init(ticks: some Publisher<Int, Never>) {
        ticks.assign(to: &$seconds)
    }
}

// The type name starts with "Operators" so that `swift test --filter Operators` selects it.
@Suite("Operators: assign(to:) an @Observed property")
struct OperatorsAssignToObservedTests {
    @Test func setsEachValueOnThePropertyAndItsObserversHearIt() {
        let model = OpsBThermostat()
        let subject = PassthroughSubject<Int, Never>()
        let observer = TestRecorder<Int, Never>()
        model.$temperature.subscribe(observer)
        subject.assign(to: &model.$temperature)
        #expect(model.temperature == 20)
        subject.send(21)
        #expect(model.temperature == 21)
        subject.send(22)
        #expect(observer.values == [20, 21, 22])
        var changes: [Int] = []
        let token = model.observe(\.temperature, options: [.old, .new]) { _, change in
            changes.append(change.oldValue! * 100 + change.newValue!)
        }
        subject.send(23)
        #expect(changes == [2223])
        token.invalidate()
        observer.cancel()
    }

    @Test func aSynchronousPublisherIsAssignedAtOnce() {
        let model = OpsBThermostat()
        Just("on").assign(to: &model.$label)
        #expect(model.label == "on")
        [1, 2, 3].publisher.assign(to: &model.$temperature)
        #expect(model.temperature == 3)
    }

    @Test func asksForEveryValueAndStopsAtTheUpstreamsCompletion() {
        let model = OpsBThermostat()
        let upstream = TestPublisher<Int, Never>()
        upstream.assign(to: &model.$temperature)
        #expect(upstream.requests == [.unlimited])
        upstream.send(5)
        upstream.send(completion: .finished)
        upstream.send(6)   // a careless upstream, after its completion: not assigned
        #expect(model.temperature == 5)
        #expect(upstream.cancelCount == 0)
    }

    @Test func theSubscriptionLivesAsLongAsTheModelAndIsCancelledWithIt() {
        let upstream = TestPublisher<Int, Never>()
        weak var weakModel: OpsBThermostat?
        do {
            let model = OpsBThermostat()
            weakModel = model
            upstream.assign(to: &model.$temperature)
            upstream.send(30)
            #expect(model.temperature == 30)
        }
        #expect(weakModel == nil, "the assignment holds its model weakly")
        #expect(upstream.cancelCount == 1)
        upstream.send(31)   // reaches nobody, and does not crash
    }

    @Test func aModelAssigningToItselfIsReleased() {
        let ticks = PassthroughSubject<Int, Never>()
        weak var weakClock: OpsBClock?
        do {
            let clock = OpsBClock(ticks: ticks)
            weakClock = clock
            ticks.send(1)
            ticks.send(2)
            #expect(clock.seconds == 2)
        }
        #expect(weakClock == nil)
        ticks.send(3)
    }

    @Test func severalAssignmentsToOnePropertyAllSet() {
        let model = OpsBThermostat()
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        a.assign(to: &model.$temperature)
        b.assign(to: &model.$temperature)
        a.send(1)
        #expect(model.temperature == 1)
        b.send(2)
        #expect(model.temperature == 2)
    }

    @Test func aCopyOfTheProjectionHasNoModelAndAssignsNothing() {
        let model = OpsBThermostat()
        var copy = model.$temperature
        Just(99).assign(to: &copy)
        #expect(model.temperature == 20)
        // Setting the projection to a publisher that carries no assignment does nothing.
        model.$temperature = OpsBThermostat().$temperature
        #expect(model.temperature == 20)
    }

    @Test func aPropertySourceIsAssignedThroughOneObserverOnItsChannelThatTheModelsEndCancels() {
        let source = OpsBThermostat()
        let observer = TestRecorder<Int, Never>()
        do {
            let model = OpsBThermostat()
            model.$temperature.subscribe(observer)
            source.$temperature.map { $0 + 1 }.assign(to: &model.$temperature)
            #expect(source.temperatureStorage.observerCount == 1)
            #expect((model.temperatureAssignments.first as? AnyCancellable)?.targetForTesting is ValueObserver<Int>)
            source.temperature = 30
            source.temperature = 31
            #expect(model.temperature == 32)
            observer.cancel()
        }
        #expect(observer.values == [20, 21, 31, 32])
        #expect(source.temperatureStorage.observerCount == 0, "the model's end cancels its assignment at once")
        source.temperature = 40   // reaches nobody
    }

    @Test func aSubjectsAssignmentIsForgottenOnceTheSubjectCompletes() {
        let model = OpsBThermostat()
        let first = PassthroughSubject<Int, Never>()
        first.assign(to: &model.$temperature)
        first.send(1)
        #expect(model.temperatureAssignments.count == 1)
        first.send(completion: .finished)
        #expect(model.temperatureAssignments.isEmpty)
        let second = PassthroughSubject<Int, Never>()
        second.assign(to: &model.$temperature)
        second.send(2)
        #expect(model.temperature == 2)
        #expect(model.temperatureAssignments.count == 1)
    }

    /// A `share()`'s fused cancellable stays live when its source completes: the list
    /// must learn of the end otherwise, or it keeps the whole upstream chain.
    @Test func aSharedSourcesAssignmentIsForgottenWithWhatItHoldsOnceTheSourceCompletes() {
        let model = OpsBThermostat()
        let subject = PassthroughSubject<Int, Never>()
        weak var weakProbe: DeinitFlag?
        do {
            let probe = DeinitFlag()
            weakProbe = probe
            subject.map { value in withExtendedLifetime(probe) { value * 2 } }.share().assign(to: &model.$temperature)
        }
        subject.send(4)
        #expect(model.temperature == 8)
        #expect(model.temperatureAssignments.count == 1)
        #expect(weakProbe != nil, "the running assignment keeps its upstream")
        subject.send(completion: .finished)
        #expect(model.temperatureAssignments.isEmpty)
        #expect(weakProbe == nil, "the ended assignment let go of its upstream")
    }

    @Test func aProjectionOfAnotherModelSetOnThisOneAssignsNothing() {
        let model = OpsBThermostat()
        let other = OpsBThermostat()
        let subject = PassthroughSubject<Int, Never>()
        let observer = TestRecorder<Int, Never>()   // so that the property has its channel
        model.$temperature.subscribe(observer)
        /// Assigns `subject` to a copy of `source`'s projection, then sets the copy on `model`.
        func assignACopy(of source: OpsBThermostat) {
            var projection = source.$temperature
            subject.assign(to: &projection)
            model.$temperature = projection
        }
        assignACopy(of: other)
        subject.send(5)
        #expect(model.temperature == 20)
        #expect(other.temperature == 20)
        #expect(model.temperatureAssignments.isEmpty)
        // Its own projection, taken out and set back, is the property's: that one starts.
        assignACopy(of: model)
        subject.send(6)
        #expect(model.temperature == 6)
        #expect(other.temperature == 20)
        #expect(observer.values == [20, 6])
        observer.cancel()
    }

    @Test func aSetInsideAnObserverOfTheAssignedPropertyIsDeliveredInOrder() {
        let model = OpsBThermostat()
        let subject = PassthroughSubject<Int, Never>()
        subject.assign(to: &model.$temperature)
        let first = model.$temperature.sink { value in
            if value == 1 { subject.send(2) }   // assigned while 1 is being delivered
        }
        let observer = TestRecorder<Int, Never>()
        model.$temperature.subscribe(observer)
        subject.send(1)
        #expect(observer.values == [20, 1, 2])
        #expect(model.temperature == 2)
        withExtendedLifetime(first) {}
        observer.cancel()
    }

    @Test func aModelReleasedWhileAnotherThreadAssignsEndsTheAssignment() {
        for _ in 0..<100 {
            let subject = PassthroughSubject<Int, Never>()
            let holder = Locked<OpsBThermostat?>(OpsBThermostat())
            holder.withLock { model in subject.assign(to: &model!.$temperature) }
            let sends = Counter()
            runConcurrently([
                {
                    for value in 0..<200 {
                        subject.send(value)
                        sends.increment()
                    }
                },
                { holder.withLock { $0 = nil } },
            ])
            #expect(sends.value == 200)
        }
    }
}

/// An object whose release a test watches through a weak reference.
private final class DeinitFlag {}
