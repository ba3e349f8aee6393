import Dispatch
import Foundation

/// Where a callback ran: its thread, and the name of the test queue it ran on, if any (a
/// queue made by ``namedQueue(_:)``). ``TestRecorder`` notes one for each event.
package struct DeliveryContext: Equatable, @unchecked Sendable {
    // `@unchecked Sendable`: immutable; `pthread_t` is only compared, never dereferenced.
    static let queueKey = DispatchSpecificKey<String>()

    package let thread: pthread_t
    package let queue: String?

    /// Where the caller runs now.
    package static var current: DeliveryContext {
        DeliveryContext(thread: pthread_self(), queue: DispatchQueue.getSpecific(key: queueKey))
    }

    /// Whether this is the calling thread.
    package var isCurrentThread: Bool { pthread_equal(thread, pthread_self()) != 0 }
}

/// A serial queue that ``DeliveryContext`` recognises by `name`.
package func namedQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: DeliveryContext.queueKey, value: name)
    return queue
}
