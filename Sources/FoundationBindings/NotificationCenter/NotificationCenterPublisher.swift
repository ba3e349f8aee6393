import Bindings
import Foundation

extension NotificationCenter {
    /// Combine's name for a publisher of a notification center's notifications:
    /// ``Bindings/Publishers/Notifications`` under the type and initializer Combine code
    /// uses, with the same behaviour (each subscriber observes the center from its
    /// subscription to its cancel; notifications arrive on the posting thread; one
    /// posted while the subscriber has no demand is dropped; it never finishes).
    ///
    /// ```swift
    /// let c = NotificationCenter.default
    ///     .publisher(for: .downloadDidFinish, object: downloader)
    ///     .sink { note in print(note.userInfo ?? [:]) }
    /// ```
    public struct Publisher: Bindings.Publisher {
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
            Publishers.Notifications(center: center, name: name, object: object).receive(subscriber: subscriber)
        }
    }

    /// A publisher of the notifications named `name`, from `object` only when one is
    /// given, as in Combine (see ``Publisher``).
    ///
    /// ```swift
    /// let c = NotificationCenter.default.publisher(for: .NSSystemClockDidChange).sink { _ in resync() }
    /// ```
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher(center: self, name: name, object: object)
    }
}
