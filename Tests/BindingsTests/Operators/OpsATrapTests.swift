import BindingsTestSupport
import Testing
@testable import Bindings
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Where Combine traps, these operators stop the program with a message that names the
// mistake and the fix, in debug and release builds alike. Each exit test runs its body in
// a child process and reads what it wrote to standard error.

@Suite("Operators: the item-2 operators stop the program where Combine traps")
struct OperatorsOpsATrapTests {
    static let zeroDemand = "request(_:) was called with a demand of zero"

    @Test func zeroDemandOnAReducingOperatorsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            PassthroughSubject<Int, Never>().count().subscribe(recorder)
            recorder.request(.max(runtimeValue(0)))
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnAFilteringOperatorsSubscription() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, any Error>(initialDemand: .none)
            PassthroughSubject<Int, Never>().tryFilter { _ in true }.subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: result).contains(Self.zeroDemand))
    }

    @Test func zeroDemandOnReplaceEmptyReplaceErrorAndCollectByCount() async {
        let empty = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            PassthroughSubject<Int, Never>().replaceEmpty(with: 0).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: empty).contains(Self.zeroDemand))
        let error = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none)
            PassthroughSubject<Int, TestError>().replaceError(with: 0).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: error).contains(Self.zeroDemand))
        let collect = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<[Int], Never>(initialDemand: .none)
            PassthroughSubject<Int, Never>().collect(2).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: collect).contains(Self.zeroDemand))
    }

    @Test func aZeroDemandPassesThroughTryMapAsInCombine() async {
        await #expect(processExitsWith: .success) {
            let upstream = TestPublisher<Int, Never>()
            let recorder = TestRecorder<Int, any Error>(initialDemand: .none)
            upstream.tryMap { $0 }.subscribe(recorder)
            recorder.request(.none)
            // Handed to the upstream, which decides.
            if upstream.requests != [.none] { exit(2) }
            recorder.cancel()
        }
    }

    @Test func collectWithACountBelowOne() async {
        let negative = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<[Int], Never>()
            PassthroughSubject<Int, Never>().collect(runtimeValue(-1)).subscribe(recorder)
        }
        #expect(standardError(of: negative).contains("collect(-1) needs a count of 1 or more"))
        let zero = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<[Int], Never>()
            PassthroughSubject<Int, Never>().collect(runtimeValue(0)).subscribe(recorder)
        }
        #expect(standardError(of: zero).contains("collect(0) needs a count of 1 or more"))
    }

    @Test func outputAtANegativeIndex() async {
        let general = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().output(at: runtimeValue(-1))
        }
        #expect(standardError(of: general).contains("output(at: -1) needs an index of 0 or more"))
        let just = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).output(at: runtimeValue(-2))
        }
        #expect(standardError(of: just).contains("output(at: -2) needs an index of 0 or more"))
        let optional = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(at: runtimeValue(-3))
        }
        #expect(standardError(of: optional).contains("output(at: -3) needs an index of 0 or more"))
    }

    @Test func outputInARangeBelowZero() async {
        let general = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = PassthroughSubject<Int, Never>().output(in: runtimeValue(-1)...2)
        }
        #expect(standardError(of: general).contains("output(in:) needs a range of positions 0 or more"))
        let optional = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: runtimeValue(-1)..<2)
        }
        #expect(standardError(of: optional).contains("output(in:) needs a range of positions 0 or more"))
    }

    @Test func assertNoFailureStopsAtAFailureNamingItsPrefixAndTheError() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, TestError>()
            let recorder = TestRecorder<Int, Never>()
            subject.assertNoFailure("settings").subscribe(recorder)
            subject.send(1)
            subject.send(completion: .failure(.boom))
        }
        let message = standardError(of: result)
        #expect(message.contains("settings: boom"))
        #expect(message.contains("OpsATrapTests.swift"))
    }

    @Test func breakpointRaisesSIGTRAPWhenAClosureSaysSo() async {
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>()
            subject.breakpoint(receiveOutput: { $0 == 2 }).subscribe(recorder)
            subject.send(1)
            subject.send(2)
        }
        await #expect(processExitsWith: .signal(SIGTRAP)) {
            let subject = PassthroughSubject<Int, TestError>()
            let recorder = TestRecorder<Int, TestError>()
            subject.breakpointOnError().subscribe(recorder)
            subject.send(completion: .failure(.boom))
        }
    }

    @Test func aValueBeforeTheSubscriptionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, Never>(subscribesAtOnce: false)
            let recorder = TestRecorder<Int, any Error>()
            upstream.tryMap { $0 }.subscribe(recorder)
            upstream.send(1)
        }
        #expect(standardError(of: result).contains(
            "TryMap received a value before its subscription: the upstream publisher must call receive(subscription:) first"))
    }
}
