import BindingsTestSupport
import Testing
@testable import Bindings

/// How a subscriber or subscription presents itself to `print`, `dump`, the debugger and
/// playgrounds: its description, its playground description, and its mirror's labels.
private struct Presentation: Equatable, CustomStringConvertible {
    let text: String
    let playground: String?
    let labels: [String?]

    init(_ text: String, labels: [String?] = []) {
        self.text = text
        playground = text
        self.labels = labels
    }

    /// What `value` shows (`"nil"` and nothing else when there is none).
    init(of value: Any?) {
        guard let value else {
            (text, playground, labels) = ("nil", nil, [])
            return
        }
        text = String(describing: value)
        playground = (value as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
        labels = Mirror(reflecting: value).children.map(\.label)
    }

    var description: String { "\(text) / \(playground ?? "-") / \(labels)" }
}

/// An upstream that keeps the subscriber an operator attaches to it (as `Any`, how the
/// debugger sees it) and can send it values. Single-threaded: the test's thread only.
private final class SubscriberCapture<Output, Failure: Error>: Publisher {
    private(set) var subscriber: Any?
    private var sendValue: ((Output) -> Void)?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        sendValue = { _ = subscriber.receive($0) }
        subscriber.receive(subscription: TestSubscription())
    }

    func send(_ value: Output) { sendValue?(value) }
}

/// What the subscriber that `build` attaches to an upstream looks like.
private func upstreamSubscriber<P: Publisher>(
    _ build: (SubscriberCapture<Int, TestError>) -> P
) -> Presentation where P.Failure == TestError {
    let capture = SubscriberCapture<Int, TestError>()
    build(capture).subscribe(TestRecorder<P.Output, TestError>())
    return Presentation(of: capture.subscriber)
}

/// What the subscription that `publisher` gives its subscriber looks like.
private func subscription<P: Publisher>(of publisher: P) -> Presentation {
    let recorder = TestRecorder<P.Output, P.Failure>(initialDemand: .none, releasesSubscription: [])
    publisher.subscribe(recorder)
    return Presentation(of: recorder.subscription)
}

@Suite("Core: descriptions, mirrors and playground descriptions as Combine prints them")
struct CoreReflectionTests {
    @Test func operatorSubscribersSeenByTheUpstream() {
        #expect(upstreamSubscriber { $0.map { $0 + 1 } } == Presentation("Map"))
        #expect(upstreamSubscriber { $0.map(\.description) } == Presentation("ValueForKey", labels: ["keyPath"]))
        #expect(upstreamSubscriber { $0.compactMap { $0 } } == Presentation("CompactMap"))
        #expect(upstreamSubscriber { $0.filter { _ in true } } == Presentation("Filter"))
        #expect(upstreamSubscriber { $0.dropFirst() } == Presentation("Drop"))
        #expect(upstreamSubscriber { $0.scan(0, +) } == Presentation("Scan", labels: ["downstream", "result"]))
        #expect(upstreamSubscriber { $0.removeDuplicates() } == Presentation("RemoveDuplicates", labels: ["downstream", "last"]))
        #expect(upstreamSubscriber { $0.prefix(2) } == Presentation("Output"))
        #expect(upstreamSubscriber { $0.handleEvents() } == Presentation("HandleEvents"))
        #expect(upstreamSubscriber { $0.prepend(0) } == Presentation("Concatenate"))
        #expect(upstreamSubscriber { $0.flatMap { Just($0).setFailureType(to: TestError.self) } } == Presentation("FlatMap"))
        #expect(upstreamSubscriber { $0.merge(with: Empty()) } == Presentation("Merge"))
        #expect(upstreamSubscriber { $0.combineLatest(Empty<Int, TestError>()) } == Presentation("CombineLatest"))
        #expect(upstreamSubscriber { $0.receive(on: ImmediateScheduler.shared) } == Presentation("ReceiveOn"))
        #expect(upstreamSubscriber { $0.throttle(for: .seconds(1), scheduler: TestScheduler(), latest: true) }
            == Presentation("Throttle"))
        #expect(upstreamSubscriber { $0.debounce(for: .seconds(1), scheduler: TestScheduler()) }
            == Presentation("Debounce", labels: ["downstream", "downstreamDemand", "currentValue"]))
    }

    @Test func setFailureTypeAndSwitchToLatestSubscribersSeenByTheUpstream() {
        let capture = SubscriberCapture<Int, Never>()
        capture.setFailureType(to: TestError.self).subscribe(TestRecorder<Int, TestError>())
        #expect(Presentation(of: capture.subscriber) == Presentation("SetFailureType"))
        let outer = SubscriberCapture<Just<Int>, Never>()
        outer.switchToLatest().subscribe(TestRecorder<Int, Never>())
        #expect(Presentation(of: outer.subscriber) == Presentation("SwitchToLatest"))
    }

    @Test func innerSubscribersOfFlatteningOperators() {
        // The subscriber each inner publisher gets is named after its operator too.
        let inner = SubscriberCapture<Int, TestError>()
        Just(inner).setFailureType(to: TestError.self).switchToLatest().subscribe(TestRecorder<Int, TestError>())
        #expect(Presentation(of: inner.subscriber) == Presentation("SwitchToLatest"))
        let merged = SubscriberCapture<Int, TestError>()
        Just(merged).setFailureType(to: TestError.self).flatMap { $0 }.subscribe(TestRecorder<Int, TestError>())
        #expect(Presentation(of: merged.subscriber) == Presentation("FlatMap"))
    }

    @Test func mirrorsShowTheStateCombineShows() throws {
        let capture = SubscriberCapture<Int, TestError>()
        capture.scan(10, +).subscribe(TestRecorder<Int, TestError>())
        capture.send(5)
        let result = Mirror(reflecting: try #require(capture.subscriber)).children.first { $0.label == "result" }?.value
        #expect(result as? Int == 15)

        let keyPath = \Int.description
        let keyed = SubscriberCapture<Int, TestError>()
        keyed.map(keyPath).subscribe(TestRecorder<String, TestError>())
        let shown = Mirror(reflecting: try #require(keyed.subscriber)).children.first?.value
        #expect(shown as? KeyPath<Int, String> == keyPath)
    }

    @Test func subscriptionsSeenByTheSubscriber() {
        let upstream = PassthroughSubject<Int, TestError>()
        #expect(subscription(of: upstream.prefix(1)) == Presentation("Output"))
        #expect(subscription(of: upstream.prepend(0)) == Presentation("Concatenate"))
        #expect(subscription(of: upstream.handleEvents()) == Presentation("HandleEvents"))
        #expect(subscription(of: upstream.map { Just($0).setFailureType(to: TestError.self) }.switchToLatest())
            == Presentation("SwitchToLatest"))
        #expect(subscription(of: upstream.flatMap { Just($0).setFailureType(to: TestError.self) }) == Presentation("FlatMap"))
        #expect(subscription(of: upstream.merge(with: upstream)) == Presentation("Merge"))
        #expect(subscription(of: Publishers.MergeMany(upstream, upstream)) == Presentation("Merge"))
        #expect(subscription(of: upstream.combineLatest(upstream))
            == Presentation("CombineLatest", labels: ["downstream", "upstreamSubscriptions", "demand", "buffers"]))
        #expect(subscription(of: upstream.receive(on: ImmediateScheduler.shared)) == Presentation("ReceiveOn"))
        #expect(subscription(of: upstream.throttle(for: .seconds(1), scheduler: TestScheduler(), latest: false))
            == Presentation("Throttle"))
        #expect(subscription(of: upstream.debounce(for: .seconds(1), scheduler: TestScheduler()))
            == Presentation("Debounce", labels: ["downstream", "downstreamDemand", "currentValue"]))
    }

    @Test func publishersSubscriptions() {
        #expect(subscription(of: Just(1)) == Presentation("Just", labels: [nil]))
        #expect(subscription(of: Optional(1).publisher) == Presentation("Optional", labels: [nil]))
        #expect(subscription(of: Result<Int, TestError>.success(1).publisher) == Presentation("Once", labels: [nil]))
        #expect(subscription(of: Empty<Int, Never>()) == Presentation("Empty"))
        #expect(subscription(of: [1, 2].publisher) == Presentation("[1, 2]", labels: ["sequence"]))
    }

    @Test func theValueOfASingleValueSubscriptionUntilItIsDelivered() throws {
        let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [])
        Just(7).subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(Mirror(reflecting: subscription).children.map { $0.value as? Int } == [7])
        recorder.request(.max(1))   // reflecting did not take the value away
        #expect(recorder.events == [.value(7), .finished])
        #expect(Mirror(reflecting: subscription).children.isEmpty)   // let go of once delivered
    }

    @Test func reflectingASingleValueSubscriptionRacesNeitherItsRequestNorItsCancel() throws {
        // The mirror borrows the value the way a request takes it: whatever the
        // interleaving, a request delivers the value once and a cancel delivers nothing.
        for round in 0..<200 {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, releasesSubscription: [])
            Just(round).subscribe(recorder)
            let subscription = UncheckedBox(try #require(recorder.subscription))
            let requests = round.isMultiple(of: 2)
            runConcurrently([
                { _ = Mirror(reflecting: subscription.value).children.count },
                { _ = Mirror(reflecting: subscription.value).children.count },
                { if requests { subscription.value.request(.max(1)) } else { subscription.value.cancel() } },
            ])
            #expect(recorder.events == (requests ? [.value(round), .finished] : []))
            #expect(Mirror(reflecting: subscription.value).children.isEmpty)
        }
    }

    @Test func aSequenceSubscriptionNamesItsSequenceUntilTheEnd() throws {
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [])
        [1, 2].publisher.subscribe(recorder)
        let subscription = try #require(recorder.subscription)
        #expect(Presentation(of: subscription) == Presentation("[1, 2]", labels: ["sequence"]))
        recorder.request(.max(1))
        #expect(recorder.events == [.value(1), .value(2), .finished])
        #expect(Presentation(of: subscription) == Presentation("Sequence", labels: ["sequence"]))
    }

    @Test func sinkAndAssign() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(Presentation(of: sink) == Presentation("Sink"))

        final class Target { var value = 0 }
        let target = Target()
        let assign = Subscribers.Assign(object: target, keyPath: \Target.value)
        #expect(Presentation(of: assign) == Presentation("Assign Target.", labels: ["object", "keyPath", "upstreamSubscription"]))
        let subscription = TestSubscription()
        assign.receive(subscription: subscription)
        let children = Mirror(reflecting: assign).children.map(\.value)
        #expect(children[0] as? Target === target)
        #expect(children[1] as? ReferenceWritableKeyPath<Target, Int> == \Target.value)
        #expect(children[2] as? TestSubscription === subscription)
        assign.cancel()
        let ended = Mirror(reflecting: assign).children.map(\.value)
        #expect(ended[0] as? Target == nil)
        #expect(ended[2] as? TestSubscription == nil)
    }

    @Test func anySubscriberShowsWhatItWraps() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        let erasedSink = AnySubscriber(sink)
        #expect(Presentation(of: erasedSink) == Presentation("Sink"))
        #expect(ObjectIdentifier(Mirror(reflecting: erasedSink).subjectType) == ObjectIdentifier(Subscribers.Sink<Int, Never>.self))

        let recorder = TestRecorder<Int, Never>()
        let erasedRecorder = AnySubscriber(recorder)
        #expect(ObjectIdentifier(Mirror(reflecting: erasedRecorder).subjectType) == ObjectIdentifier(TestRecorder<Int, Never>.self))
        #expect(Mirror(reflecting: erasedRecorder).children.isEmpty)

        let anonymous = AnySubscriber<Int, Never>()
        #expect(anonymous.description == "Anonymous AnySubscriber")
        #expect(anonymous.playgroundDescription as? String == "Anonymous AnySubscriber")
        #expect(ObjectIdentifier(Mirror(reflecting: anonymous).subjectType) == ObjectIdentifier(String.self))
    }

    @Test func anyPublisherHidesWhatItWraps() {
        let erased = Just(1).eraseToAnyPublisher()
        #expect(erased.description == "AnyPublisher")
        #expect(erased.playgroundDescription as? String == "AnyPublisher")
    }
}
