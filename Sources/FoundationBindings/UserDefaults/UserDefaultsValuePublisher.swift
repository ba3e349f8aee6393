import Bindings
import Dispatch
import Foundation

extension UserDefaults: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher of one user default's value: the current value when subscribing,
    /// then each new value, like KVO's `publisher(for:options: [.initial, .new])` on
    /// `UserDefaults` on Apple platforms.
    ///
    /// Create one with ``Reactive/value(forKey:as:pollInterval:)`` or
    /// ``Reactive/value(forKey:default:pollInterval:)``. The publisher never
    /// finishes.
    ///
    /// **How changes are noticed:** there is no KVO on Linux, and Linux Foundation's
    /// `set(_:forKey:)` posts no `UserDefaults.didChangeNotification` (only
    /// `setPersistentDomain` and `removePersistentDomain` do). So each subscription
    /// re-reads the key when `UserDefaults.didChangeNotification` is posted (by any
    /// defaults object: Apple's Foundation posts it on every write) and, unless
    /// `pollInterval` is `nil`, every `pollInterval` too; it emits when the value differs
    /// from the last one read. A write on Linux therefore arrives within `pollInterval`,
    /// or at once when the writer posts the notification:
    /// ```swift
    /// defaults.set(3, forKey: "volume")
    /// NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
    /// ```
    /// Values that change and change back between two reads are not seen.
    ///
    /// **Thread:** the current value arrives on the subscribing thread, inside
    /// `subscribe` (or inside `request(_:)` when the subscriber asks later); changes
    /// arrive on a private serial dispatch queue of the subscription.
    ///
    /// **Demand:** the value is a state, so only the latest counts: a change read while
    /// the subscriber has no unmet demand replaces any value still waiting, and is
    /// delivered when the subscriber asks.
    ///
    /// **Cancel:** removes the notification observer and cancels the polling timer.
    public struct UserDefaultsValue<Value: Equatable>: Publisher {
        /// The value of the default.
        public typealias Output = Value
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The defaults this publisher reads.
        public let defaults: UserDefaults
        /// The key of the default.
        public let key: String
        /// How often the value is re-read, or `nil` to re-read only when
        /// `UserDefaults.didChangeNotification` is posted.
        public let pollInterval: DispatchTimeInterval?
        /// Turns the stored object (or `nil`) into the published value.
        let decode: (Any?) -> Value

        init(defaults: UserDefaults, key: String, pollInterval: DispatchTimeInterval?, decode: @escaping (Any?) -> Value) {
            self.defaults = defaults
            self.key = key
            self.pollInterval = pollInterval
            self.decode = decode
        }

        /// Sends the current value, then re-reads the default on each change notification and poll until the subscriber cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .keepLatest)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }

            let reader = UserDefaultsReader(defaults: defaults, key: key, decode: decode, receiver: subscription)
            reader.sendCurrentValue()
            let checker: any UserDefaultsChecking = reader
            let queue = reader.queue
            let center = NotificationCenter.default
            let token = center.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: nil) { _ in
                queue.async { checker.check() }
            }
            let timer = pollInterval.map { interval in
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.setEventHandler { checker.check() }
                timer.schedule(deadline: .now() + interval, repeating: interval)
                timer.resume()
                return timer
            }
            // A write between the first read and the observer's registration would
            // otherwise wait for the next poll (or be missed without polling).
            queue.async { checker.check() }
            subscription.attach(stop: {
                center.removeObserver(token)
                timer?.cancel()
            })
        }
    }
}

extension Reactive where Base: UserDefaults {
    /// A publisher of the default stored under `key`, as a `Value`: the current value
    /// first, then each change; `nil` when the key has no value or a value of another
    /// type.
    ///
    /// Changes are noticed when `UserDefaults.didChangeNotification` is posted and every
    /// `pollInterval` (Linux Foundation posts no notification for `set(_:forKey:)`); the
    /// current value arrives on the subscribing thread, changes on a private serial
    /// queue. See ``Publishers/UserDefaultsValue``.
    ///
    /// ```swift
    /// let c = UserDefaults.standard.reactive.value(forKey: "username", as: String.self)
    ///     .sink { name in print(name ?? "signed out") }
    /// ```
    public func value<Value: Equatable>(
        forKey key: String,
        as type: Value.Type = Value.self,
        pollInterval: DispatchTimeInterval? = .milliseconds(250)
    ) -> Publishers.UserDefaultsValue<Value?> {
        Publishers.UserDefaultsValue(defaults: base, key: key, pollInterval: pollInterval) { $0 as? Value }
    }

    /// A publisher of the default stored under `key`, or `defaultValue` when the key has
    /// no value or a value of another type: the current value first, then each change.
    ///
    /// Threads and change detection as for ``value(forKey:as:pollInterval:)``.
    ///
    /// ```swift
    /// let c = UserDefaults.standard.reactive.value(forKey: "volume", default: 5)
    ///     .sink { volume in player.volume = volume }
    /// ```
    public func value<Value: Equatable>(
        forKey key: String,
        default defaultValue: Value,
        pollInterval: DispatchTimeInterval? = .milliseconds(250)
    ) -> Publishers.UserDefaultsValue<Value> {
        Publishers.UserDefaultsValue(defaults: base, key: key, pollInterval: pollInterval) {
            ($0 as? Value) ?? defaultValue
        }
    }
}
