import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

/// A `Cancellable` struct that counts its cancels.
private struct CountingCancellable: Cancellable {
    let counter: Counter
    func cancel() { counter.increment() }
}

/// A `Cancellable` class that counts its cancels.
private final class CountingCancellableObject: Cancellable, Sendable {
    let counter = Counter()
    func cancel() { counter.increment() }
}

@Suite struct CoreAnyCancellableTests {
    @Test func cancelsOnDeinit() {
        let counter = Counter()
        do {
            let cancellable = AnyCancellable { counter.increment() }
            #expect(counter.value == 0)
            withExtendedLifetime(cancellable) {}
        }
        #expect(counter.value == 1)
    }

    @Test func cancelRunsTheActionOnceAndDeinitDoesNotRunItAgain() {
        let counter = Counter()
        do {
            let cancellable = AnyCancellable { counter.increment() }
            cancellable.cancel()
            #expect(counter.value == 1)
            cancellable.cancel()
            cancellable.cancel()
            #expect(counter.value == 1)
        }
        #expect(counter.value == 1)
    }

    @Test func releasesTheActionRightAfterCancel() {
        weak var weakTracked: Canary?
        let cancellable: AnyCancellable
        do {
            let tracked = Canary()
            weakTracked = tracked
            cancellable = AnyCancellable { tracked.value += 1 }
        }
        #expect(weakTracked != nil)
        cancellable.cancel()
        #expect(weakTracked == nil)
    }

    @Test func cancelFromEightThreadsAtOnceRunsTheActionOnce() {
        for _ in 0..<50 {
            let counter = Counter()
            let box = UncheckedBox(AnyCancellable { counter.increment() })
            runConcurrently(threads: 8) { _ in box.value.cancel() }
            #expect(counter.value == 1)
        }
    }

    @Test func wrapsACancellableStruct() {
        let counter = Counter()
        do {
            let cancellable = AnyCancellable(CountingCancellable(counter: counter))
            cancellable.cancel()
            cancellable.cancel()
        }
        #expect(counter.value == 1)
        do {
            _ = AnyCancellable(CountingCancellable(counter: counter))
        }
        #expect(counter.value == 2)
    }

    @Test func wrapsACancellableObjectAndCancelsItOnDeinit() {
        let object = CountingCancellableObject()
        do {
            _ = AnyCancellable(object)
        }
        #expect(object.counter.value == 1)
        let cancellable = AnyCancellable(object)
        cancellable.cancel()
        cancellable.cancel()
        #expect(object.counter.value == 2)
    }

    @Test func wrappingAnAnyCancellableForwardsOnce() {
        let counter = Counter()
        let inner = AnyCancellable { counter.increment() }
        let outer = AnyCancellable(inner)
        outer.cancel()
        inner.cancel()
        #expect(counter.value == 1)
    }

    @Test func hashableByIdentity() {
        let a = AnyCancellable {}
        let b = AnyCancellable {}
        #expect(a == a)
        #expect(a != b)
        #expect(a.hashValue == a.hashValue)
        let set: Set<AnyCancellable> = [a, b, a]
        #expect(set.count == 2)
        #expect(set.contains(a))
        #expect(set.contains(b))
        #expect(!set.contains(AnyCancellable {}))
    }

    @Test func storeInSetKeepsItAliveUntilRemoved() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        let cancellable = AnyCancellable { counter.increment() }
        cancellable.store(in: &set)
        cancellable.store(in: &set)
        #expect(set.count == 1)
        #expect(set.contains(cancellable))
        AnyCancellable { counter.increment() }.store(in: &set)
        #expect(set.count == 2)
        #expect(counter.value == 0)
        set.removeAll()
        withExtendedLifetime(cancellable) {}
        #expect(counter.value == 1)
    }

    @Test func storeInArrayAppendsTheSameInstance() {
        let counter = Counter()
        var array: [AnyCancellable] = []
        let cancellable = AnyCancellable { counter.increment() }
        cancellable.store(in: &array)
        #expect(array.count == 1)
        #expect(array[0] === cancellable)
        AnyCancellable { counter.increment() }.store(in: &array)
        #expect(array.count == 2)
        #expect(counter.value == 0)
        array.removeAll()
        #expect(counter.value == 1)
        withExtendedLifetime(cancellable) {}
        cancellable.cancel()
        #expect(counter.value == 2)
    }

    @Test func storeInAnyRangeReplaceableCollection() {
        let counter = Counter()
        var contiguous = ContiguousArray<AnyCancellable>()
        AnyCancellable { counter.increment() }.store(in: &contiguous)
        #expect(contiguous.count == 1)
        contiguous.removeAll()
        #expect(counter.value == 1)
    }

    @Test func cancellableStoreWrapsInAnAnyCancellable() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        CountingCancellable(counter: counter).store(in: &set)
        CountingCancellable(counter: counter).store(in: &array)
        #expect(set.count == 1)
        #expect(array.count == 1)
        #expect(counter.value == 0)
        set.removeAll()
        array.removeAll()
        #expect(counter.value == 2)
    }

    @Test func sinkStoredInASetIsCancelledWhenTheSetIsEmptied() {
        let subject = PassthroughSubject<Int, Never>()
        var received: [Int] = []
        var set = Set<AnyCancellable>()
        subject.sink { received.append($0) }.store(in: &set)
        subject.send(1)
        set.removeAll()
        subject.send(2)
        #expect(received == [1])
        #expect(subject.core.channel.observerCount == 0)
    }

    /// `AnyCancellable` is `Sendable` (issue 16, item 2): handed to another thread, it
    /// cancels there, and nothing is delivered after that `cancel()` returns.
    @Test func cancelsFromAnotherThreadItIsHandedTo() async {
        let subject = PassthroughSubject<Int, Never>()
        let received = LockedLog<Int>()
        let c = subject.sink { received.append($0) }
        subject.send(1)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                c.cancel()
                done.resume()
            }
        }
        subject.send(2)
        #expect(received.items == [1])
    }
}
