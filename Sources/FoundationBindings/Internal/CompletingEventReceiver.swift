import Bindings

/// The input side of an ``EventSubscription`` whose publisher can fail, without its
/// subscriber's type: ``EventReceiver`` for sources that end with a typed error (a URL
/// session task's completion handler).
///
/// Like ``EventReceiver``, it lets a `@Sendable` callback hold the generic subscription
/// without capturing its subscriber's metatype.
protocol CompletingEventReceiver<Output, Failure>: AnyObject, Sendable {
    associatedtype Output
    associatedtype Failure: Error

    /// Offers a value (see ``EventSubscription/send(_:)``).
    func send(_ value: Output)

    /// Ends the stream after the waiting values (see ``EventSubscription/finish(_:)``).
    func finish(_ completion: Subscribers.Completion<Failure>)
}

extension EventSubscription: CompletingEventReceiver {}
