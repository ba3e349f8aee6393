import Dispatch
import Foundation
import Testing
@testable import Bindings

// A model released on one thread while another thread delivers one of its values: the
// observers hear the end from the delivering thread, after the value in flight, never
// while one of their callbacks runs on the other thread (a subscriber is called one
// event at a time, as in Combine).

/// Records a subscriber's calls, and whether one began while another was running.
/// `@unchecked Sendable`: everything is behind `lock`.
private final class ObsOverlapRecorder: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never

    private let lock = NSLock()
    private var inside = false
    private(set) var overlapped = false
    private var log: [String] = []
    private var subscription: (any Subscription)?
    /// Signalled when a value's callback has begun; the callback then waits for `resume`.
    let entered = DispatchSemaphore(value: 0)
    let resume = DispatchSemaphore(value: 0)

    var events: [String] { lock.withLock { log } }

    func request(_ demand: Subscribers.Demand) { lock.withLock { subscription }?.request(demand) }

    private func enter(_ event: String) {
        lock.withLock {
            if inside { overlapped = true }
            inside = true
            log.append(event)
        }
    }

    private func exit() { lock.withLock { inside = false } }

    func receive(subscription: any Subscription) { lock.withLock { self.subscription = subscription } }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter("value \(input)")
        entered.signal()
        resume.wait()
        exit()
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        enter("finished")
        exit()
        let subscription: (any Subscription)? = lock.withLock {
            defer { self.subscription = nil }
            return self.subscription
        }
        withExtendedLifetime(subscription) {}
    }
}

/// The only reference to the model, handed to the releasing thread. `@unchecked
/// Sendable`: one thread at a time uses it.
private final class ObsModelHolder: @unchecked Sendable {
    var person: ObsPerson?
    init(_ person: ObsPerson) { self.person = person }
}

@Suite("Observation: the model goes while another thread delivers")
struct ObsEndWhileAnotherThreadDeliversTests {
    @Test func theEndWaitsForTheValueInFlight() {
        let holder = ObsModelHolder(ObsPerson())
        let recorder = ObsOverlapRecorder()
        holder.person!.$count.subscribe(recorder)   // no demand yet: 0 is owed
        // Another thread's first request delivers the owed value, and waits inside it.
        let delivering = Thread { recorder.request(.max(5)) }
        delivering.start()
        recorder.entered.wait()
        holder.person = nil   // the model deinitialises here, during that delivery
        #expect(recorder.events == ["value 0"], "the end is not delivered while the value is")
        recorder.resume.signal()
        let deadline = Date().addingTimeInterval(5)
        while recorder.events.count < 2, Date() < deadline { usleep(1000) }
        #expect(recorder.events == ["value 0", "finished"])
        #expect(!recorder.overlapped)
    }
}
