import BindingsTestSupport
import Testing
@testable import Bindings

// `ThreadLocalKey`, which the tracking sessions and batches find their thread's state
// through: made by the first store on any thread, one key for all threads even when
// several make it at once, and each thread reads back only what it stored.

@Suite("Observation: thread-local keys")
struct ObsThreadLocalKeyTests {
    @Test func readsNothingBeforeAnyStoreAndMakesNoKeyForIt() {
        let key = ThreadLocalKey()
        #expect(key.value == nil)
        #expect(key.word.load(ordering: .relaxed) == 0)
    }

    @Test func eachThreadReadsWhatItStoredAfterThreadsMadeTheKeyAtOnce() {
        // Four threads store at once into a key nobody made yet: each makes one and
        // offers it, one wins, and the losers' stores go under the winner's key. Then
        // every thread reads its own value, none another's.
        for _ in 0..<50 {
            let box = ThreadLocalKeyBox()
            let seen = LockedLog<String>()
            runConcurrently(threads: 4) { index in
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
            #expect(box.key.word.load(ordering: .relaxed) != 0)
        }
    }
}

/// A key in an object, so that the threads of a test share one (a `~Copyable` value
/// cannot be captured by several closures); deleted with the object.
final class ThreadLocalKeyBox: Sendable {
    let key = ThreadLocalKey()
}
