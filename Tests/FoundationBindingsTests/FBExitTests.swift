import Bindings
import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import FoundationBindings

// SPEC section 7: what FoundationBindings treats as a programmer error stops the program
// with a message that names the mistake and the fix. Each exit test runs its body in a
// child process and reads what it wrote to standard error.

@Suite("FoundationBindings: programmer errors stop the program")
struct FBExitTests {
    @Test func zeroDemandOnANotificationsPublisherIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<Notification, Never>(initialDemand: .none)
            NotificationCenter.default.reactive.notifications(named: Notification.Name("FBExit"))
                .subscribe(subscriber)
            subscriber.subscription?.request(.max(runtimeValue(0)))
        }
        #expect(standardError(of: result).contains("request(_:) was called with a demand of zero"))
    }

    @Test func zeroDemandOnATimerIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestRecorder<DispatchQueue.SchedulerTimeType, Never>(initialDemand: .none)
            DispatchQueue.global().reactive.timer(every: .seconds(60)).subscribe(subscriber)
            subscriber.subscription?.request(.none)
        }
        #expect(standardError(of: result).contains("request(_:) was called with a demand of zero"))
    }

    @Test func observingSIGKILLIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchSource.reactive.signals(runtimeValue(SIGKILL))
        }
        let message = standardError(of: result)
        #expect(message.contains("signal 9 cannot be observed"), "stderr: \(message)")
        #expect(message.contains("not SIGKILL or SIGSTOP"), "stderr: \(message)")
    }

    @Test func observingAnInvalidSignalIsNamed() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchSource.reactive.signals(SIGINT, runtimeValue(-3))
        }
        #expect(standardError(of: result).contains("signal -3 cannot be observed"))
    }
}
