import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: Process")
struct FBProcessTests {
    /// `/bin/sh -c script`, not yet run.
    private func shell(_ script: String) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        return process
    }

    @Test func theTerminationStatusArrivesOnceThenTheStreamFinishes() throws {
        let process = shell("exit 3")
        let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        process.reactive.termination.subscribe(recorder)
        #expect(recorder.events == [])
        try process.run()
        #expect(recorder.wait(forCount: 2))
        #expect(recorder.events == [.value(3), .finished])
        // Foundation's termination thread, not the test's.
        #expect(pthread_equal(recorder.deliveryContexts[0].thread, pthread_self()) == 0)
    }

    @Test func aProcessThatAlreadyExitedPublishesItsStatusAtOnce() throws {
        let process = shell("exit 4")
        try process.run()
        process.waitUntilExit()
        let recorder = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        process.reactive.termination.subscribe(recorder)
        #expect(recorder.events == [.value(4), .finished])
        #expect(pthread_equal(recorder.deliveryContexts[0].thread, pthread_self()) != 0)
    }

    @Test func subscribingWhileRunningWorksAndTheOwnHandlerStillRuns() throws {
        let process = shell("read line; exit 5")
        let input = Pipe()
        process.standardInput = input
        let ownHandlerRan = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ownHandlerRan.signal() }
        try process.run()
        let first = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let second = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        process.reactive.termination.subscribe(first)
        process.reactive.termination.subscribe(second)
        #expect(first.events == [])
        try input.fileHandleForWriting.close()  // lets the process exit
        #expect(first.wait(forCount: 2))
        #expect(second.wait(forCount: 2))
        #expect(first.events == [.value(5), .finished])
        #expect(second.events == [.value(5), .finished])
        #expect(ownHandlerRan.wait(timeout: .now() + 10) == .success)
    }

    @Test func theStatusWaitsForDemand() throws {
        let process = shell("exit 6")
        let waiting = TestRecorder<Int32, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        let witness = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        process.reactive.termination.subscribe(waiting)
        process.reactive.termination.subscribe(witness)
        try process.run()
        #expect(witness.wait(forCount: 2))
        #expect(waiting.events == [])
        waiting.request(.max(1))
        #expect(waiting.wait(forCount: 2))
        #expect(waiting.events == [.value(6), .finished])
    }

    @Test func aCancelledSubscriberGetsNothing() throws {
        let process = shell("exit 7")
        let cancelled = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let witness = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        process.reactive.termination.subscribe(cancelled)
        process.reactive.termination.subscribe(witness)
        weak let subscription = cancelled.subscription as AnyObject?
        cancelled.cancel()
        #expect(subscription == nil)
        try process.run()
        #expect(witness.wait(forCount: 2))
        #expect(witness.events == [.value(7), .finished])
        #expect(cancelled.events == [])
    }

    @Test func theOutputLinesOfAChildProcessArriveThenTheStreamFinishes() throws {
        let process = shell("printf 'a\\nb\\nc'")
        let output = Pipe()
        process.standardOutput = output
        let lines = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let status = TestRecorder<Int32, Never>(releasesSubscription: [.onCompletion, .onCancel])
        output.fileHandleForReading.reactive.lines.subscribe(lines)
        process.reactive.termination.subscribe(status)
        try process.run()
        #expect(lines.wait(forCount: 4))
        #expect(lines.events == [.value("a"), .value("b"), .value("c"), .finished])
        #expect(status.wait(forCount: 2))
        #expect(status.events == [.value(0), .finished])
    }

    @Test func theOutputDataOfAChildProcessArrivesThenTheStreamFinishes() throws {
        let process = shell("printf hello")
        let output = Pipe()
        process.standardOutput = output
        let data = TestRecorder<Data, Never>(releasesSubscription: [.onCompletion, .onCancel])
        output.fileHandleForReading.reactive.data.subscribe(data)
        try process.run()
        #expect(data.wait { $0.last == .finished })
        #expect(data.events.last == .finished)
        #expect(String(decoding: data.values.reduce(Data(), +), as: UTF8.self) == "hello")
    }
}
