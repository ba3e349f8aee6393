import BindingsTestSupport
import Testing
@testable import Bindings

/// A Combine model whose property is fed by `assign(to: &$property)`.
private final class AssignedClock: ObservableObject {
    @Published var seconds = 0

    init(ticks: some Publisher<Int, Never>) {
        ticks.assign(to: &$seconds)
    }
}

@Suite("Porting: assign(to:) of a @Published property")
struct PublishedAssignTests {
    @Test func eachValueIsSetAndAnnouncedAsASetWouldBe() {
        let ticks = PassthroughSubject<Int, Never>()
        let clock = AssignedClock(ticks: ticks)
        var log: [String] = []
        let willChange = clock.objectWillChange.sink { log.append("willChange while \(clock.seconds)") }
        let values = clock.$seconds.sink { log.append("$seconds \($0)") }
        ticks.send(1)
        ticks.send(2)
        #expect(clock.seconds == 2)
        #expect(log == [
            "$seconds 0",
            "willChange while 0", "$seconds 1",
            "willChange while 1", "$seconds 2",
        ])
        withExtendedLifetime((willChange, values)) {}
    }

    @Test func theObjectLivesOnItsOwnAndItsDeinitCancelsTheUpstream() {
        let upstream = TestPublisher<Int, Never>()
        var clock: AssignedClock? = AssignedClock(ticks: upstream)
        #expect(upstream.log == [.subscribed, .request(.unlimited)])
        upstream.send(5)
        #expect(clock?.seconds == 5)
        weak let gone = clock
        clock = nil                                    // no cycle through its own assignment
        #expect(gone == nil)
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
        upstream.send(6)                               // after the cancel: goes nowhere
    }

    @Test func aFinishedUpstreamEndsTheAssignmentAndTheValuesStay() {
        let clock = AssignedClock(ticks: [3, 4].publisher)
        #expect(clock.seconds == 4)
        #expect(clock.$seconds.box.assignments.map { list in list.running.isEmpty } == true)
    }

    @Test func aSubjectIsAssignedThroughOneClosureOnItsChannelAndForgottenAtItsCompletion() {
        let ticks = PassthroughSubject<Int, Never>()
        let clock = AssignedClock(ticks: ticks)
        let running = clock.$seconds.box.assignments?.running ?? []
        #expect(running.count == 1)
        #expect((running.first as? AnyCancellable)?.targetForTesting is SubjectValueObserver<Int, Never>)
        ticks.send(7)
        #expect(clock.seconds == 7)
        ticks.send(completion: .finished)
        #expect(clock.$seconds.box.assignments?.running.isEmpty == true)
    }

    @Test func aFusedAssignmentEndsWithItsObject() {
        let ticks = PassthroughSubject<Int, Never>()
        weak var gone: AssignedClock?
        do {
            let clock = AssignedClock(ticks: ticks)
            gone = clock
            ticks.send(1)
            #expect(clock.seconds == 1)
        }
        #expect(gone == nil, "the assignment holds its object weakly")
        #expect(ticks.core.channel.observerCount == 0, "the object's end cancels its assignment")
        ticks.send(2)   // reaches nobody
    }

    @Test func severalAssignmentsInterleaveInSendOrder() {
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<Int, Never>()
        let clock = AssignedClock(ticks: first)
        second.assign(to: &clock.$seconds)
        let recorder = TestRecorder<Int, Never>()
        clock.$seconds.subscribe(recorder)
        first.send(1)
        second.send(20)
        first.send(3)
        #expect(recorder.values == [0, 1, 20, 3])
    }
}
