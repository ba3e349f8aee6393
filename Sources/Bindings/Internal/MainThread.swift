import Dispatch

/// Whether code runs on the main thread (where the main actor and the main dispatch
/// queue run), without Foundation.
///
/// The main queue is tagged with a queue-specific key; libdispatch treats the main
/// thread as running the main queue, so the tag is visible there and only there.
enum MainThread {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
