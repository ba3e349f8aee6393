extension Subscribers {
    /// A subscriber that assigns each received value to a property of an object, as in
    /// Combine. It holds the object strongly until the stream completes or is cancelled.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible {
        /// An assignment cannot fail.
        public typealias Failure = Never

        private let lock = Lock()
        /// Guarded by `lock`.
        private var root: Root?
        /// Guarded by `lock`.
        private var subscription: (any Subscription)?
        /// Guarded by `lock`: set once the stream has ended (completion or cancel).
        private var finished = false
        /// The key path of the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// The object that receives the values, or `nil` once the stream has ended.
        public var object: Root? { lock.withLock { root } }

        /// Creates a subscriber that assigns to `keyPath` on `object`.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.root = object
            self.keyPath = keyPath
        }

        /// `"Assign Root."`, as in Combine.
        public var description: String { "Assign \(Root.self)." }

        /// Keeps the subscription and requests unlimited values; a second one is cancelled.
        public func receive(subscription: any Subscription) {
            lock.lock()
            guard self.subscription == nil, !finished else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            lock.unlock()
            subscription.request(.unlimited)
        }

        /// Assigns `value` to the object's property, unless the stream has ended. A value
        /// from an upstream that breaks the rules (before the subscription, after the
        /// end) is dropped, as in Combine.
        public func receive(_ value: Input) -> Subscribers.Demand {
            let root = lock.withLock { subscription != nil ? self.root : nil }
            root?[keyPath: keyPath] = value
            return .none
        }

        /// Ends the stream and releases the object. A completion before the subscription
        /// is ignored, as in Combine.
        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            guard subscription != nil else {
                lock.unlock()
                return
            }
            finished = true
            let root = self.root
            self.root = nil
            subscription = nil
            lock.unlock()
            withExtendedLifetime(root) {}
        }

        /// Cancels the upstream subscription and releases the object.
        public func cancel() {
            lock.lock()
            finished = true
            let subscription = self.subscription
            let root = self.root
            self.subscription = nil
            self.root = nil
            lock.unlock()
            subscription?.cancel()
            withExtendedLifetime(root) {}
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object, which is held
    /// strongly until the subscription ends.
    ///
    /// ```swift
    /// let c = person.$firstName.assign(to: \.text, on: label)
    /// ```
    ///
    /// Inlinable: where the publisher's type is known and it offers a fused sink (a
    /// property publisher, a subject, and `map`, `filter` and the other operators that
    /// fuse; see `Publisher._fusedSink`), the assignment becomes one closure on its channel, compiled
    /// here, with the same values, order and lifetime: the closure holds `object` until
    /// the returned cancellable is cancelled or released, or the publisher completes.
    /// Through `Subscribers.Assign`, whose code runs generic, a subject's value took
    /// 241 ns to assign, against about 30.
    @inlinable
    public func assign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        // The key path in a closure of its own: where it is written out at the call
        // site, the optimizer then compiles the closure into the property's setter (a
        // closure that also captured `object` applied the key path at run time, 121 ns).
        let write: (Root, Output) -> Void = { root, value in root[keyPath: keyPath] = value }
        if let fused = _fusedSink({ write(object, $0) }) { return fused }
        return subscribeAssign(to: keyPath, on: object)
    }

    /// `assign(to:on:)` through a `Subscribers.Assign`.
    @usableFromInline
    func subscribeAssign<Root>(
        to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root
    ) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable.unchecked(wrapping: subscriber)
    }
}

extension Subscribers.Assign: CustomReflectable, CustomPlaygroundDisplayConvertible {
    /// The object (`nil` once the stream has ended), the key path and the upstream
    /// subscription, as in Combine.
    public var customMirror: Mirror {
        let (root, subscription) = lock.withLock { (self.root, self.subscription) }
        return Mirror(self, children: [
            "object": root as Any, "keyPath": keyPath, "upstreamSubscription": subscription as Any,
        ])
    }

    /// `"Assign Root."`, as in Combine.
    public var playgroundDescription: Any { description }
}
