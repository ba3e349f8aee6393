import Dispatch
import Foundation

/// Reads one default for one ``Publishers/UserDefaultsValue`` subscription and sends it
/// when it differs from the last value read.
///
/// Reads after the first are serialised on `queue`, so that a later read is always sent
/// after an earlier one: two notifications handled on two threads could otherwise send
/// an old value last.
///
/// `@unchecked Sendable`: `last` is written once by ``sendCurrentValue()`` on the
/// subscribing thread before anything is scheduled on `queue` (the scheduling orders
/// it), and afterwards only read and written by ``check()``, which runs only on the
/// serial `queue`. `decode` is called from those same two places, never concurrently.
/// The other properties are constants, and the receiver is thread-safe.
final class UserDefaultsReader<Value: Equatable>: @unchecked Sendable {
    let queue = DispatchQueue(label: "FoundationBindings.UserDefaultsValue")
    private let defaults: UserDefaults
    private let key: String
    private let decode: (Any?) -> Value
    private let receiver: any EventReceiver<Value>
    private var last: Value?

    init(defaults: UserDefaults, key: String, decode: @escaping (Any?) -> Value, receiver: any EventReceiver<Value>) {
        self.defaults = defaults
        self.key = key
        self.decode = decode
        self.receiver = receiver
    }

    /// Reads and sends the current value. Call once, before scheduling ``check()``.
    func sendCurrentValue() {
        let value = decode(defaults.object(forKey: key))
        last = value
        receiver.send(value)
    }

    /// Re-reads the value and sends it if it changed. On `queue` only.
    func check() {
        dispatchPrecondition(condition: .onQueue(queue))
        let value = decode(defaults.object(forKey: key))
        guard value != last else { return }
        last = value
        receiver.send(value)
    }
}
