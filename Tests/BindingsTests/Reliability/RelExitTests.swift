import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// SPEC section 7: misuse that the library treats as a programmer error stops the program
// with a message that names the mistake and the fix, in debug and in release builds alike.
// Each exit test runs its body in a child process and reads what it wrote to stderr.
// (Zero demand on subjects, `Just` and `Empty`, and negative demands, are in
// Core/DemandTests.swift.)

final class RelExitModel: KeyValueObservable {
    @Observed var a = 1
    var doubled: Int { a * 2 }
}

/// A to-many property notified by hand, for the indexed-change misuse.
final class RelIndexedModel: KeyValueObservable {
    var items = ["a", "b"]
}

@Suite("Reliability: programmer errors stop the program")
struct RelExitTests {
    static let zeroDemand = "request(_:) was called with a demand of zero"

    @Test func zeroDemandOnAKeyPathSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelExitModel()
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            model.publisher(for: \.doubled).subscribe(subscriber)
            subscriber.request(.max(runtimeValue(0)))
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnAProjection() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelExitModel()
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            model.$a.subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnAnObservableValue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = ObservableValue(1)
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            value.subscribe(subscriber)
            subscriber.request(.max(runtimeValue(0)))
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandThroughMap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelExitModel()
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            model.$a.map { $0 + 1 }.subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnCombineLatest() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelExitModel()
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            model.$a.combineLatest(ObservableValue(2)) { $0 + $1 }.subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnMerge() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            ObservableValue(1).merge(with: ObservableValue(2)).subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnReceiveOn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // `receive(on:)` passes `.none` upstream, as Combine's does; the value's
            // subscription traps on it.
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            let value = ObservableValue(1)
            value.receive(on: ImmediateScheduler.shared).subscribe(subscriber)
            subscriber.request(.none)
            withExtendedLifetime(value) {}
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnSwitchToLatest() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            ObservableValue(1).map { ObservableValue($0) }.switchToLatest().subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnFlatMap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            ObservableValue(1).flatMap { ObservableValue($0) }.subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnDebounce() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            ObservableValue(1).debounce(for: .seconds(1), scheduler: DispatchQueue.global()).subscribe(subscriber)
            subscriber.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandPassesThroughASequencePrependHandleEventsAndThrottle() {
        // As in Combine: these accept `.none` (it adds nothing); an operator passes it
        // upstream, which decides (a subject traps: see the tests above).
        let sequence = TestRecorder<Int, Never>(initialDemand: .none)
        [1, 2, 3].publisher.subscribe(sequence)
        sequence.request(.none)
        let prepend = TestRecorder<Int, Never>(initialDemand: .none)
        ObservableValue(1).prepend(0).subscribe(prepend)
        prepend.request(.none)
        let requests = LockedLog<Subscribers.Demand>()
        let handled = TestRecorder<Int, Never>(initialDemand: .none)
        [7].publisher.handleEvents(receiveRequest: { requests.append($0) }).subscribe(handled)
        handled.request(.none)
        let throttled = TestRecorder<Int, Never>(initialDemand: .none)
        PassthroughSubject<Int, Never>().throttle(for: 0, scheduler: ImmediateScheduler.shared, latest: true)
            .subscribe(throttled)
        throttled.request(.none)
        #expect(sequence.events.isEmpty && prepend.events.isEmpty && handled.events.isEmpty && throttled.events.isEmpty)
        #expect(requests.items == [.none])
        sequence.request(.max(1))
        #expect(sequence.events == [.value(1)])
        // The streams never end: each recorder and its subscription hold each other
        // until cancelled.
        for recorder in [sequence, prepend, handled, throttled] { recorder.cancel() }
    }

    @Test func negativeDropFirstNamesTheCountWhenSubscribed() async {
        // Built, it is harmless (as in Combine): the trap comes with a subscriber.
        let unused = ObservableValue(1).dropFirst(runtimeValue(-2))
        #expect(unused.count == -2)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let publisher = ObservableValue(1).dropFirst(runtimeValue(-2))
            _ = publisher.sink { _ in }
        }
        let message = standardError(of: result)
        #expect(message.contains("dropFirst(-2) needs a count of 0 or more"), "stderr: \(message)")
    }

    @Test func negativePrefixNamesTheLength() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ObservableValue(1).prefix(runtimeValue(-1))
        }
        let message = standardError(of: result)
        #expect(message.contains("prefix(-1) needs a length of 0 or more"), "stderr: \(message)")
    }

    @Test func notANumberIntervalIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchQueue.SchedulerTimeType.Stride.seconds(Double(runtimeValue(0)) / 0.0)
        }
        let message = standardError(of: result)
        #expect(message.contains("a scheduler interval of NaN seconds"), "stderr: \(message)")
    }

    @Test func negativeOutputRangeIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let start = runtimeValue(-1)
            _ = Publishers.Output(upstream: ObservableValue(1), range: start..<2)
        }
        let message = standardError(of: result)
        #expect(message.contains("Publishers.Output needs a range of positions 0 or more"), "stderr: \(message)")
    }

    @Test func aValueThatAValuesIteratorDidNotAskForIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // A publisher that ignores demand: it sends before any `next()` asked.
            let upstream = TestPublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            _ = upstream.send(1)
            withExtendedLifetime(iterator) {}
        }
        let message = standardError(of: result)
        #expect(message.contains("a publisher sent a value to a `values` iterator that had not asked for one"),
                "stderr: \(message)")
        #expect(message.contains("Make it send only what `request(_:)` asked for"), "stderr: \(message)")
    }

    @Test func anIndexedChangeOfKindSettingIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelIndexedModel()
            model.willChange(.setting, valuesAt: RangeSet(0 ..< 1), for: \.items)
        }
        let message = standardError(of: result)
        #expect(message.contains("willChange(.setting, valuesAt:for:) announces an indexed change"), "stderr: \(message)")
        #expect(message.contains("use willChangeValue(for:) for a set"), "stderr: \(message)")
    }

    @Test func didChangeWithoutWillChangeIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelIndexedModel()
            model.didChange(.insertion, valuesAt: RangeSet(0 ..< 1), for: \.items)
        }
        let message = standardError(of: result)
        #expect(message.contains("without a matching willChange(insertion, valuesAt:for:)"), "stderr: \(message)")
    }

    @Test func indexesOutsideTheCollectionAreNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = RelIndexedModel()
            model.willChange(.removal, valuesAt: RangeSet(3 ..< 5), for: \.items)
        }
        let message = standardError(of: result)
        #expect(message.contains("was given indexes [Range(3..<5)] outside the collection's 0..<2"), "stderr: \(message)")
    }

    /// The control: a correct request does not stop the program, and the values arrive.
    @Test func positiveDemandRuns() async {
        await #expect(processExitsWith: .success) {
            let model = RelExitModel()
            let subscriber = TestRecorder<Int, Never>(initialDemand: .none)
            model.publisher(for: \.doubled).subscribe(subscriber)
            subscriber.request(.max(1))
            model.a = 5
            if subscriber.values != [2] { fatalError("unexpected values \(subscriber.values)") }
            subscriber.cancel()   // the subscription and its subscriber hold each other until then
        }
    }

    // Whatever a thread that a callback hands the model to does while the callback waits
    // completes (see ObsOtherThreadDuringDeliveryTests): this program does all of it, and
    // runs to the end, also under ThreadSanitizer and AddressSanitizer (CI runs this
    // suite under both).
    @Test func handOffDuringADeliveryRunsToTheEnd() async {
        await #expect(processExitsWith: .success) {
            final class Listener {}
            let model = RelExitModel()
            let listener = Listener()
            let breaker = UncheckedBox((model, listener))   // one thread at a time: the callback waits
            let log = LockedLog<String>()
            model.$a.bind(listener, skipInitialValue: true) { _, value in log.append("listener \(value)") }
            let cancelled = Locked<AnyCancellable?>(model.$a.sink { value in log.append("cancelled \(value)") })
            let late = Locked<AnyCancellable?>(nil)
            let holder = model.$a.sink { value in
                guard value == 2 else { return }
                // Hands the model to another thread and waits for it.
                runOnAnotherThread {
                    breaker.value.0.$a.unbind(breaker.value.1)
                    cancelled.withLock { $0?.cancel() }
                    late.withLock { $0 = breaker.value.0.$a.sink { value in log.append("late \(value)") } }
                    breaker.value.0.a = 3
                }
            }
            model.a = 2
            let expected = ["cancelled 1", "listener 2", "cancelled 2", "late 2", "late 3"]
            let got = log.items
            if got != expected { fatalError("unexpected deliveries \(got)") }
            if model.a != 3 { fatalError("unexpected value \(model.a)") }
            withExtendedLifetime((holder, late, listener)) {}
        }
    }
}
