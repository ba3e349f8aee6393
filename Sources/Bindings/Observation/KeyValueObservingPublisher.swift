/// A publisher of the values at a key path of a ``KeyValueObservable`` model, as
/// Combine's `NSObject.KeyValueObservingPublisher`. Make one with
/// ``KeyValueObservable/publisher(for:options:)``.
///
/// It emits the value after each change, the current value at subscription when
/// `.initial` is in the options (the default), and with `.prior` the value before each
/// change too. The key path may be an `@Observed` property, a computed property, or a
/// chain through observed objects, which re-subscribes when an intermediate object is
/// replaced. It holds the model weakly and finishes when the model is gone.
///
/// ```swift
/// let c = person.publisher(for: \.address.city).sink { print($0) }   // "London"
/// person.address.city = "Paris"                                     // "Paris"
/// ```
///
/// A member of the value that is not a member of the publisher continues the key path
/// (see ``subscript(dynamicMember:)``): `person.reactive.address.city` is
/// `person.publisher(for: \.address.city)`.
@dynamicMemberLookup
public struct KeyValueObservingPublisher<Subject: KeyValueObservable, Value>: Publisher {
    /// The kind of values this publisher publishes.
    public typealias Output = Value
    /// This publisher cannot fail.
    public typealias Failure = Never

    /// The observed object, or `nil` once it is gone.
    public var object: Subject? { reference.object }
    /// The observed key path.
    @inlinable
    public var keyPath: KeyPath<Subject, Value> { specialization.keyPath }
    /// The options of the observation.
    public let options: KeyValueObservingOptions

    @usableFromInline let reference: WeakReference<Subject>
    /// Made here, inlined where the types are known, for the changes of a derived key
    /// path; it holds the key path (see ``DerivedSpecialization``).
    @usableFromInline let specialization: DerivedSpecialization<Subject, Value>

    /// Creates a publisher for `keyPath` on `object`.
    @inlinable
    public init(object: Subject, keyPath: KeyPath<Subject, Value>, options: KeyValueObservingOptions) {
        reference = WeakReference(object)
        self.options = options
        specialization = DerivedSpecialization(keyPath)
    }

    /// A publisher of the same object, with the same options, that already holds the
    /// object weakly (it may be gone).
    @inlinable
    init(reference: WeakReference<Subject>, keyPath: KeyPath<Subject, Value>, options: KeyValueObservingOptions) {
        self.reference = reference
        self.options = options
        specialization = DerivedSpecialization(keyPath)
    }

    /// A publisher of the key path that `specialization` holds (see
    /// ``DerivedSpecialization/init(writable:)``, which a binding target shares).
    @inlinable
    init(reference: WeakReference<Subject>, specialization: DerivedSpecialization<Subject, Value>, options: KeyValueObservingOptions) {
        self.reference = reference
        self.options = options
        self.specialization = specialization
    }

    /// The publisher of the key path that continues this one with `member`, on the same
    /// object with the same options: `download.reactive.server.host` observes
    /// `\.server.host` of `download`, following `server` when it is replaced.
    ///
    /// ```swift
    /// let c = person.reactive.address.city.sink { print($0) }   // "London"
    /// person.address = Address("Paris")                        // "Paris"
    /// ```
    ///
    /// A member that the publisher has itself (`map`, `values`, and operators such as
    /// `count`, `first`, `last`, `min`) is the publisher's: reach a property of that name
    /// with `publisher(for:)` and the whole key path (`publisher(for: \.items.count)`).
    /// The key path is made when this is called, so each change applies it at run time
    /// (a key path written out at `publisher(for:)` is compiled into property reads).
    @inlinable
    public subscript<Member>(dynamicMember member: KeyPath<Value, Member>) -> KeyValueObservingPublisher<Subject, Member> {
        KeyValueObservingPublisher<Subject, Member>(
            reference: reference, keyPath: keyPath.appending(path: member), options: options)
    }

    /// Attaches `subscriber`: it receives the values the options ask for, and `.finished` once the object is gone (at once if it already is).
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
        guard let object else {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: .finished)
            return
        }
        let (channel, snapshot) = ObservationTarget.resolve(object, specialization: specialization)
        PropertySubscription(
            channel: channel, options: options, downstream: subscriber, snapshot: snapshot)
        .handOver()
    }
}

extension KeyValueObservingPublisher {
    /// Attaches a closure that receives the values: the same as
    /// `Publisher.sink(receiveValue:)`, on a path with no generic overhead (the one of
    /// `$property.sink`), except with `.prior`, which takes the general one.
    ///
    /// Called from main-actor code (`isolation`, filled in for you), the closure runs on
    /// the main queue only: at once when the value is set there, otherwise through the
    /// main queue, in order. From another actor it runs on that actor, asynchronously, in
    /// order, but for what the subscription sends at once (a current value), which it
    /// gets before this returns. From nonisolated code it runs on the thread that sets.
    @inlinable
    public func sink(
        isolation: isolated (any Actor)? = #isolation, receiveValue: @escaping (Value) -> Void
    ) -> AnyCancellable {
        CallerIsolation.sink(isolation, receiveValue) { sinkOnSendingThread($0) }
    }

    /// ``sink(isolation:receiveValue:)`` on the sending thread.
    @inlinable
    func sinkOnSendingThread(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
        guard !options.contains(.prior), let object else {
            return sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
        }
        let (channel, snapshot) = ObservationTarget.resolve(object, specialization: specialization)
        return PropertyChannel.sink(
            channel, initial: options.contains(.initial), snapshot: snapshot, receiveValue: receiveValue)
    }
}

extension KeyValueObservingPublisher: Equatable {
    /// Two publishers are equal when they observe the same object at the same key path with the same options.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.object === rhs.object && lhs.keyPath == rhs.keyPath && lhs.options == rhs.options
    }
}

/// A weak reference in a value type, or in a closure that runs for each change.
///
/// A closure's capture list (`[weak x]`) keeps `x` as a variable of the closure's context,
/// whose every read Swift checks for exclusivity at run time (`swift_beginAccess`, about
/// 4 ns); a `weak let` of this class is read with no check. So hot closures capture one of
/// these instead (`let reference = WeakReference(x)`, then `reference.object`).
@usableFromInline
final class WeakReference<Object: AnyObject> {
    @usableFromInline weak let object: Object?
    @usableFromInline init(_ object: Object) { self.object = object }
}
