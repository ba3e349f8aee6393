@testable import Bindings

/// A list appended to from several threads.
///
/// `@unchecked Sendable`: `storage` is only touched with `lock` held.
final class SchedLockedLog<Item>: @unchecked Sendable {
    private let lock = Lock()
    private var storage: [Item] = []

    var items: [Item] {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    func append(_ item: Item) { lock.withLock { storage.append(item) } }
}
