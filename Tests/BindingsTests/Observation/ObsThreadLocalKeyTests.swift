import BindingsTestSupport
import Testing
@testable import Bindings

// The state of each thread: `ThreadLocalKey`, which holds a thread's `BatchContext` for
// its life (each thread reads back only what it stored); the context released when its
// thread ends; and the thread identifiers that deliveries compare.

@Suite("Observation: thread-local state")
struct ObsThreadLocalKeyTests {
    @Test func eachLiveThreadHasAnIdentifierOfItsOwn() {
        // Four threads alive at once: four identifiers, none 0, none the test thread's,
        // each the same every time its thread reads it.
        let mine = currentThreadID()
        let seen = LockedLog<UInt>()
        runConcurrently(threads: 4) { _ in
            let first = currentThreadID()
            seen.append(first)
            if currentThreadID() != first { seen.append(0) }
        }
        #expect(seen.items.count == 4)
        #expect(Set(seen.items).count == 4)
        #expect(!seen.items.contains(0))
        #expect(!seen.items.contains(mine))
        #expect(currentThreadID() == mine)
    }

    @Test func aThreadsContextIsReleasedWhenTheThreadEnds() {
        // A batch and a tracking session make the thread's context; the thread's end
        // releases it (the key's destructor), and another thread gets one of its own.
        let contexts = LockedLog<WeakBox<BatchContext>>()
        for _ in 0..<2 {
            runOnAnotherThread {
                let model = ThreadStateModel()
                batchChanges { model.value = 1 }
                _ = DependencyTracking.track { model.value }
                contexts.append(WeakBox(BatchContext.ofThisThread.takeUnretainedValue()))
            }
        }
        #expect(contexts.items.count == 2)
        #expect(contexts.items.allSatisfy { $0.object == nil })
    }

    @Test func eachThreadReadsOnlyWhatItStored() {
        // Four threads store into one key at once: each reads back its own value, none
        // another's, and a thread that stored nothing reads nil.
        for _ in 0..<50 {
            let box = ThreadLocalKeyBox()
            let seen = LockedLog<String>()
            #expect(box.key.value == nil)
            runConcurrently(threads: 4) { index in
                if box.key.value != nil { seen.append("thread \(index) read a value before storing") }
                let mine = UnsafeMutableRawPointer(bitPattern: 0x1000 * (index + 1))
                box.key.set(mine)
                for _ in 0..<100 {
                    if box.key.value != mine {
                        seen.append("thread \(index) read \(String(describing: box.key.value))")
                    }
                }
                box.key.set(nil)
            }
            #expect(seen.items == [])
            #expect(box.key.value == nil)
        }
    }
}

private final class ThreadStateModel: KeyValueObservable {
    @Observed var value = 0
}

/// A key in an object, so that the threads of a test share one (a `~Copyable` value
/// cannot be captured by several closures); deleted with the object.
final class ThreadLocalKeyBox: Sendable {
    let key = ThreadLocalKey()
}
