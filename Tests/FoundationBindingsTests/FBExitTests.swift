import Bindings
import Dispatch
import Foundation
import Testing
@testable import FoundationBindings

// SPEC section 7: what FoundationBindings treats as a programmer error stops the program
// with a message that names the mistake and the fix. Each exit test runs its body in a
// child process and reads what it wrote to standard error.

/// A subscriber that requests nothing by itself, so that the test can make the request.
private final class FBDemandSubscriber<Input>: Subscriber, @unchecked Sendable {
    // `@unchecked Sendable`: used on one thread in these tests.
    typealias Failure = Never
    var subscription: (any Subscription)?
    func receive(subscription: any Subscription) { self.subscription = subscription }
    func receive(_ input: Input) -> Subscribers.Demand { .none }
    func receive(completion: Subscribers.Completion<Never>) {}
}

/// A number the optimizer cannot fold, so that the misuse happens at run time.
private func fbRuntime(_ value: Int32) -> Int32 { CommandLine.arguments.count > 1_000_000 ? 0 : value }

private func standardError(_ result: ExitTest.Result?) -> String {
    guard let bytes = result?.standardErrorContent else { return "" }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite("FoundationBindings: programmer errors stop the program")
struct FBExitTests {
    @Test func zeroDemandOnANotificationsPublisherIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = FBDemandSubscriber<Notification>()
            NotificationCenter.default.reactive.notifications(named: Notification.Name("FBExit"))
                .subscribe(subscriber)
            subscriber.subscription?.request(.max(Int(fbRuntime(0))))
        }
        #expect(standardError(result).contains("request(_:) was called with a demand of zero"))
    }

    @Test func zeroDemandOnATimerIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = FBDemandSubscriber<DispatchQueue.SchedulerTimeType>()
            DispatchQueue.global().reactive.timer(every: .seconds(60)).subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
        #expect(standardError(result).contains("request(_:) was called with a demand of zero"))
    }

    @Test func observingSIGKILLIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchSource.reactive.signals(fbRuntime(SIGKILL))
        }
        let message = standardError(result)
        #expect(message.contains("signal 9 cannot be observed"), "stderr: \(message)")
        #expect(message.contains("not SIGKILL or SIGSTOP"), "stderr: \(message)")
    }

    @Test func observingAnInvalidSignalIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchSource.reactive.signals(SIGINT, fbRuntime(-3))
        }
        #expect(standardError(result).contains("signal -3 cannot be observed"))
    }
}
