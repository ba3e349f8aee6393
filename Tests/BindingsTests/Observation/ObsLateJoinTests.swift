import BindingsTestSupport
import Dispatch
import Foundation
import Testing
@testable import Bindings

// A subscriber that registers while another thread delivers gets its initial value at
// once and joins the list afterwards. A source that several threads send to may have
// sent (and finished delivering) a newer value in between: the subscriber must catch up
// with it, not end stale.

@Suite("Observation: a subscriber joining while another thread delivers")
struct ObsLateJoinTests {
    /// Thread A delivers value 1 to a first subscriber that blocks; thread B subscribes
    /// meanwhile and, inside its initial value's callback, lets A finish and has thread C
    /// send 2, delivered at once to the registered subscribers only.
    private func lateJoin(
        send: @escaping @Sendable (Int) -> Void,
        subscribe: @escaping @Sendable (@escaping @Sendable (Int) -> Void) -> AnyCancellable
    ) -> [Int] {
        let firstBlocks = DispatchSemaphore(value: 0)
        let releaseFirst = DispatchSemaphore(value: 0)
        let firstDone = DispatchSemaphore(value: 0)
        let blocking = Locked(true)
        let late = LockedLog<Int>()
        let first = subscribe { value in
            if value == 1, blocking.withLock({ let was = $0; $0 = false; return was }) {
                firstBlocks.signal()
                releaseFirst.wait()
            }
        }
        runConcurrently([
            {
                send(1)
                firstDone.signal()
            },
            {
                firstBlocks.wait()
                let joined = Locked(false)
                let second = subscribe { value in
                    late.append(value)
                    if !joined.withLock({ let was = $0; $0 = true; return was }) {
                        // Inside the initial value's callback, before joining the list.
                        releaseFirst.signal()
                        firstDone.wait()
                        runOnAnotherThread { send(2) }
                    }
                }
                withExtendedLifetime(second) {}
            },
        ])
        withExtendedLifetime(first) {}
        return late.items
    }

    @Test func anObservableValueSubscriberCatchesUp() {
        let value = ObservableValue(0)
        let values = lateJoin(send: { value.update($0) }, subscribe: { receive in value.sink { receive($0) } })
        #expect(values == [1, 2])
        #expect(value.value == 2)
    }

    @Test func aCurrentValueSubjectSubscriberCatchesUp() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let values = lateJoin(send: { subject.send($0) }, subscribe: { receive in subject.sink { receive($0) } })
        #expect(values == [1, 2])
    }
}
