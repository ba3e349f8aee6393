import Bindings
import BindingsTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing
@testable import FoundationBindings

/// How many times ``fbCountingHandler`` ran.
let fbHandledSignals = Atomic<Int>(0)

/// A signal handler of "the application's own", to check that it is restored.
@_cdecl("fbCountingHandler")
func fbCountingHandler(_ signal: Int32) {
    fbHandledSignals.add(1, ordering: .relaxed)
}

/// Serialized: the tests send signals to the whole test process and check the
/// process-wide dispositions of SIGUSR1 and SIGUSR2, which no other test uses.
@Suite("FoundationBindings: Unix signals", .serialized)
struct FBSignalTests {
    /// Whether `signal`'s disposition is the default action.
    private func isDefault(_ signal: Int32) -> Bool {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self) == 0
    }

    @Test func aSignalSentToTheOwnProcessArrivesOncePerSignal() {
        #expect(isDefault(SIGUSR1))
        let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        DispatchSource.reactive.signals(SIGUSR1).subscribe(recorder)
        // The default action (terminating the process) is off while subscribed.
        #expect(!isDefault(SIGUSR1))
        for count in 1...3 {
            kill(getpid(), SIGUSR1)
            #expect(recorder.wait(forCount: count))
        }
        #expect(recorder.events == [.value(SIGUSR1), .value(SIGUSR1), .value(SIGUSR1)])
        #expect(recorder.deliveryContexts.allSatisfy { pthread_equal($0.thread, pthread_self()) == 0 })
        recorder.cancel()
        #expect(isDefault(SIGUSR1))
    }

    @Test func aSecondSubscriptionAfterTheFirstEndedStillReceives() {
        // On Linux libdispatch installs its signal handler only for the first source of
        // a signal; the registry reinstalls it.
        for round in 1...3 {
            let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
            DispatchSource.reactive.signals(SIGUSR1).subscribe(recorder)
            kill(getpid(), SIGUSR1)
            #expect(recorder.wait(forCount: 1), "round \(round)")
            #expect(recorder.values == [SIGUSR1])
            recorder.cancel()
            #expect(isDefault(SIGUSR1))
        }
    }

    @Test func oneSubscriptionReceivesEachOfItsSignals() {
        let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        DispatchSource.reactive.signals(SIGUSR1, SIGUSR2, SIGUSR1).subscribe(recorder)
        kill(getpid(), SIGUSR2)
        #expect(recorder.wait(forCount: 1))
        kill(getpid(), SIGUSR1)
        #expect(recorder.wait(forCount: 2))
        #expect(recorder.values == [SIGUSR2, SIGUSR1])
        recorder.cancel()
        #expect(isDefault(SIGUSR1))
        #expect(isDefault(SIGUSR2))
    }

    @Test func aCancelledSubscriberGetsNothingMoreAndTheLastOneRestoresTheDisposition() {
        let staying = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let leaving = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let publisher = DispatchSource.reactive.signals(SIGUSR1)
        publisher.subscribe(staying)
        publisher.subscribe(leaving)
        kill(getpid(), SIGUSR1)
        #expect(staying.wait(forCount: 1))
        #expect(leaving.wait(forCount: 1))
        weak let subscription = leaving.subscription as AnyObject?
        leaving.cancel()
        // Released once no delivery holds it: the one that reached `leaving` may still be
        // finishing on the source's queue (it holds its receivers until it returns).
        #expect(eventually(timeout: 2) { subscription == nil })
        #expect(!isDefault(SIGUSR1))
        kill(getpid(), SIGUSR1)
        #expect(staying.wait(forCount: 2))
        #expect(leaving.values == [SIGUSR1])
        staying.cancel()
        #expect(isDefault(SIGUSR1))
    }

    @Test func aSignalWithoutDemandIsDropped() {
        let limited = TestRecorder<Int32, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        let witness = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let publisher = DispatchSource.reactive.signals(SIGUSR1)
        publisher.subscribe(limited)
        publisher.subscribe(witness)
        kill(getpid(), SIGUSR1)
        #expect(witness.wait(forCount: 1))
        kill(getpid(), SIGUSR1)
        #expect(witness.wait(forCount: 2))
        #expect(limited.values == [SIGUSR1])
        limited.request(.max(1))
        #expect(limited.values == [SIGUSR1])  // nothing was kept
        kill(getpid(), SIGUSR1)
        #expect(witness.wait(forCount: 3))
        #expect(limited.wait(forCount: 2))
        #expect(limited.values == [SIGUSR1, SIGUSR1])
        limited.cancel()
        witness.cancel()
    }

    @Test func theApplicationsOwnHandlerIsBypassedWhileSubscribedAndRestoredAfter() {
        var own = sigaction()
        own.__sigaction_handler.sa_handler = fbCountingHandler
        var previous = sigaction()
        sigaction(SIGUSR2, &own, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }
        let before = fbHandledSignals.load(ordering: .relaxed)

        let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        DispatchSource.reactive.signals(SIGUSR2).subscribe(recorder)
        kill(getpid(), SIGUSR2)
        #expect(recorder.wait(forCount: 1))
        #expect(fbHandledSignals.load(ordering: .relaxed) == before)
        recorder.cancel()

        // Sent by a thread to itself, so that the handler has run when `pthread_kill`
        // returns; a new thread that unblocks the signal, because libdispatch's handler
        // blocks signals in each thread it runs on.
        let sent = DispatchSemaphore(value: 0)
        let thread = Thread {
            var mask = sigset_t()
            sigemptyset(&mask)
            sigaddset(&mask, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &mask, nil)
            pthread_kill(pthread_self(), SIGUSR2)
            sent.signal()
        }
        thread.start()
        #expect(sent.wait(timeout: .now() + 10) == .success)
        #expect(fbHandledSignals.load(ordering: .relaxed) == before + 1)
        #expect(recorder.values == [SIGUSR2])
    }
}
