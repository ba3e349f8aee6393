import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// `sink(receiveValue:)` on a subject that cannot fail, and on an `ObservableValue`,
// registers the closure straight on the channel: the same values, in the same order,
// and the same lifetimes as Combine's `Sink`.

@Suite("Subjects: sink(receiveValue:) on the channel")
struct SubjectSinkTests {
    @Test func aCurrentValueSubjectGivesItsValueThenEveryNewOne() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let received = LockedLog<Int>()
        let c = subject.sink { received.append($0) }
        subject.send(2)
        subject.value = 3
        c.cancel()
        subject.send(4)
        #expect(received.items == [1, 2, 3])
    }

    /// What the handle cancels tells the channel path from a subscription.
    @Test func aSinkOnASubjectIsOneObserverOnItsChannel() {
        let subject = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        let failable = PassthroughSubject<Int, TestError>()
        let c = subject.sink { _ in }
        let d = current.sink { _ in }
        let e = failable.sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(c.targetForTesting is SubjectValueObserver<Int, Never>)
        #expect(d.targetForTesting is SubjectValueObserver<Int, Never>)
        #expect(e.targetForTesting != nil)
        #expect(!(e.targetForTesting is SubjectValueObserver<Int, TestError>))
        withExtendedLifetime((c, d, e)) {}
    }

    @Test func aPassthroughSubjectGivesWhatIsSentAfter() {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(0)
        let received = LockedLog<Int>()
        let c = subject.sink { value in
            received.append(value)
            if value == 1 { subject.send(10) }   // queued: after 1 reaches everyone
        }
        let second = LockedLog<Int>()
        let d = subject.sink { second.append($0) }
        subject.send(1)
        #expect(received.items == [1, 10])
        #expect(second.items == [1, 10])
        withExtendedLifetime((c, d)) {}
    }

    @Test func theCompletionReleasesTheClosureWhileTheCancellableIsHeld() {
        let subject = PassthroughSubject<Int, Never>()
        weak var weakCanary: Canary?
        let c: AnyCancellable = {
            let canary = Canary()
            weakCanary = canary
            return subject.sink { _ in canary.touch() }
        }()
        subject.send(1)
        #expect(weakCanary != nil)
        subject.send(completion: .finished)
        #expect(weakCanary == nil)
        subject.send(2)
        withExtendedLifetime(c) {}
    }

    @Test func aSinkOnACompletedSubjectLetsGoOfItsClosureAtOnce() {
        let subject = CurrentValueSubject<Int, Never>(1)
        subject.send(completion: .finished)
        weak var weakCanary: Canary?
        let received = LockedLog<Int>()
        let c: AnyCancellable = {
            let canary = Canary()
            weakCanary = canary
            return subject.sink { canary.touch(); received.append($0) }
        }()
        #expect(received.items == [])
        #expect(weakCanary == nil)
        withExtendedLifetime(c) {}
    }

    @Test func sendsFromSeveralThreadsEachArriveOnceInTheirThreadsOrder() {
        let subject = PassthroughSubject<Int, Never>()
        let received = LockedLog<Int>()
        let c = subject.sink { received.append($0) }
        let box = UncheckedBox(subject)
        runConcurrently(threads: 4) { thread in
            for index in 0..<500 { box.value.send(thread * 1000 + index) }
        }
        let values = received.items
        #expect(values.count == 2000)
        for thread in 0..<4 {
            let mine = values.filter { $0 / 1000 == thread }
            #expect(mine == Array(thread * 1000..<thread * 1000 + 500))
        }
        withExtendedLifetime(c) {}
    }

    @Test func anObservableValueGivesItsValueThenEveryUpdateAndEndsWithIt() {
        var value: ObservableValue<Int>? = ObservableValue(1)
        let received = LockedLog<Int>()
        weak var weakCanary: Canary?
        let c: AnyCancellable = {
            let canary = Canary()
            weakCanary = canary
            return value!.sink { canary.touch(); received.append($0) }
        }()
        value!.update(2)
        value = nil
        #expect(received.items == [1, 2])
        #expect(weakCanary == nil, "released with the value, while the cancellable is held")
        withExtendedLifetime(c) {}
    }
}
