import Bindings
import Foundation

extension NotificationCenter: ReactiveExtensionProvider {}

extension Publishers {
    /// A publisher of the notifications that a notification center posts with a given
    /// name (and, optionally, object), like Combine's `NotificationCenter.Publisher`.
    ///
    /// Create one with ``Reactive/notifications(named:object:)``. Each
    /// subscriber adds its own observer to the center when it subscribes and removes it
    /// when it cancels. The publisher never finishes.
    ///
    /// **Thread:** a notification arrives synchronously on the thread that posts it
    /// (the observer is registered without an operation queue), unless another
    /// thread is delivering to the same subscriber at that moment, in which case that
    /// thread delivers it right after the current one. Use
    /// `receive(on:)` to move values to a queue.
    ///
    /// **Demand:** a notification posted while the subscriber has no unmet demand is
    /// dropped, as in Combine.
    public struct Notifications: Publisher {
        /// The notifications posted.
        public typealias Output = Notification
        /// The publisher cannot fail.
        public typealias Failure = Never

        /// The notification center this publisher observes.
        public let center: NotificationCenter
        /// The name of the notifications to publish.
        public let name: Notification.Name
        /// The object whose notifications are published, or `nil` for any sender.
        public let object: AnyObject?

        /// Creates a publisher of the notifications named `name` that `center` posts,
        /// sent by `object` (compared by identity), or by anyone when `object` is `nil`.
        public init(center: NotificationCenter, name: Notification.Name, object: AnyObject? = nil) {
            self.center = center
            self.name = name
            self.object = object
        }

        /// Adds an observer for the subscriber, removed when it cancels.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = EventSubscription(downstream: subscriber, policy: .drop)
            subscriber.receive(subscription: subscription)
            guard subscription.isActive else { return }
            let center = self.center
            let receiver: any EventReceiver<Notification> = subscription
            let token = center.addObserver(forName: name, object: object, queue: nil) { notification in
                receiver.send(notification)
            }
            subscription.attach(stop: { center.removeObserver(token) })
        }
    }
}

extension Reactive where Base: NotificationCenter {
    /// A publisher that emits each notification named `name` that this center posts,
    /// from `object` only when one is given (compared by identity).
    ///
    /// Notifications arrive on the posting thread; one posted while the subscriber has
    /// no demand is dropped (see ``Publishers/Notifications``).
    ///
    /// ```swift
    /// let c = NotificationCenter.default.reactive
    ///     .notifications(named: .downloadDidFinish, object: downloader)
    ///     .sink { note in print(note.userInfo ?? [:]) }
    /// ```
    public func notifications(named name: Notification.Name, object: AnyObject? = nil) -> Publishers.Notifications {
        Publishers.Notifications(center: base, name: name, object: object)
    }
}
