import BindingsTestSupport
import Testing
@testable import Bindings

/// An upstream that keeps the subscriber an operator attaches to it, as the debugger
/// sees it. Single-threaded: the test's thread only.
private final class AttachedSubscriber<Output, Failure: Error>: Publisher {
    private(set) var subscriber: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        self.subscriber = subscriber
        subscriber.receive(subscription: TestSubscription())
    }
}

/// The description and playground description of the subscriber that `build` attaches
/// upstream.
private func upstreamSubscriberName<P: Publisher>(
    _ build: (AttachedSubscriber<Int, TestError>) -> P
) -> [String?] {
    let upstream = AttachedSubscriber<Int, TestError>()
    build(upstream).subscribe(TestRecorder<P.Output, P.Failure>(initialDemand: .none))
    guard let subscriber = upstream.subscriber else { return [] }
    return [
        String(describing: subscriber),
        (subscriber as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String,
    ]
}

@Suite("Operators: the item-2 operators' subscribers and subscriptions describe themselves as Combine's")
struct OperatorsOpsAReflectionTests {
    @Test func passThroughSubscribersSeenByTheUpstream() {
        #expect(upstreamSubscriberName { $0.mapError { $0 } } == ["MapError", "MapError"])
        #expect(upstreamSubscriberName { $0.ignoreOutput() } == ["IgnoreOutput", "IgnoreOutput"])
        #expect(upstreamSubscriberName { $0.breakpoint() } == ["Breakpoint", "Breakpoint"])
        #expect(upstreamSubscriberName { $0.assertNoFailure() } == ["AssertNoFailure", "AssertNoFailure"])
        #expect(upstreamSubscriberName { $0.map(\.self, \.bitWidth) } == ["ValueForKeys", "ValueForKeys"])
        #expect(upstreamSubscriberName { $0.map(\.self, \.bitWidth, \.hashValue) } == ["ValueForKeys", "ValueForKeys"])
    }

    @Test func ownSubscriptionsAreAlsoTheUpstreamsSubscribers() {
        #expect(upstreamSubscriberName { $0.tryMap { $0 } } == ["TryMap", "TryMap"])
        #expect(upstreamSubscriberName { $0.count() } == ["Count", "Count"])
        #expect(upstreamSubscriberName { $0.print() } == ["Print", "Print"])
        #expect(upstreamSubscriberName { $0.collect(2) } == ["CollectByCount", "CollectByCount"])
    }

    @Test func mirrorsHaveNoChildrenExceptAssertNoFailures() throws {
        let upstream = AttachedSubscriber<Int, TestError>()
        upstream.tryMap { $0 }.subscribe(TestRecorder<Int, any Error>(initialDemand: .none))
        #expect(Mirror(reflecting: try #require(upstream.subscriber)).children.isEmpty)
        let asserting = AttachedSubscriber<Int, TestError>()
        asserting.assertNoFailure("prefix").subscribe(TestRecorder<Int, Never>(initialDemand: .none))
        let labels = Mirror(reflecting: try #require(asserting.subscriber)).children.map(\.label)
        #expect(labels == ["file", "line", "prefix"])
    }
}
