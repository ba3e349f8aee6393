/// A property that publishes its changes, as Combine's `@Published`, so that Combine
/// models compile unchanged.
///
/// ```swift
/// final class Player: ObservableObject {
///     @Published var score = 0
/// }
/// let player = Player()
/// let c = player.$score.sink { print($0) }   // 0
/// player.score = 3                           // 3
/// ```
///
/// As in Combine, it announces a change before it happens: `$score` subscribers receive
/// the new value while the property still reads the old one, and the enclosing object's
/// `objectWillChange` sends first. Only for properties of classes.
///
/// How it differs from `@Observed`, and when to pick which: `@Observed` (in a
/// ``KeyValueObservable`` class) notifies after the set, with KVO's options (`.old`,
/// `.new`, `.prior`, `.initial`), key paths, computed and chained key paths, batches and
/// `autorun`, and no cost for a property nobody observes. `@Published` is here to port
/// Combine code as it is; prefer `@Observed` in new code.
@propertyWrapper
public struct Published<Value> {
    /// The value and what publishes it; a class, shared by the copies of the wrapper.
    let box: PublishedBox<Value>

    /// Creates the property with its initial value.
    public init(wrappedValue: Value) {
        box = PublishedBox(wrappedValue)
    }

    /// Creates the property with its initial value (Combine's older spelling).
    public init(initialValue: Value) {
        self.init(wrappedValue: initialValue)
    }

    /// Only through the enclosing class: `@Published` is only for properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("unavailable") }
        set { fatalError("unavailable") }
    }

    /// `$property`: a publisher of the current value, then each new one.
    public var projectedValue: Publisher {
        get { Publisher(box: box) }
        set {}   // `assign(to: &$property)` reads it back; the box is the same
    }

    /// The value, read and written through the enclosing object: a set sends the
    /// object's `objectWillChange` (when it has one), then the new value to `$property`'s
    /// subscribers, then stores it.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].box.value }
        set { object[keyPath: storageKeyPath].box.set(newValue) }
    }

    /// The publisher of a `@Published` property, `$property`, as in Combine: the current
    /// value on subscription, then each new value, before the property stores it.
    public struct Publisher: Bindings.Publisher {
        /// The property's values.
        public typealias Output = Value
        /// It never fails.
        public typealias Failure = Never

        let box: PublishedBox<Value>

        /// A publisher of `output` alone, as Combine's initializer makes (not tied to any
        /// property).
        public init(_ output: Output) {
            box = PublishedBox(output)
        }

        init(box: PublishedBox<Value>) { self.box = box }

        /// Attaches `subscriber`: the current value, then each new one.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {
            box.publisher.subscribe(subscriber)
        }

        /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
        public func _fusedSink(_ receiveValue: @escaping (Value) -> Void) -> AnyCancellable? {
            box.publisher._fusedSink(receiveValue)
        }
    }
}

extension Published: PublishedProperty {
    var willChangeSlot: any PublishedWillChangeSlot { box }
}

/// The state of a `@Published` property. Not thread-safe, as Combine's is not: the
/// enclosing object's isolation guards it.
final class PublishedBox<Value>: PublishedWillChangeSlot {
    var value: Value
    /// Made the first time `$property` is subscribed to.
    var subject: CurrentValueSubject<Value, Never>?
    /// The enclosing object's `objectWillChange`, once it was asked for.
    var willChange: ObservableObjectPublisher?

    /// The `assign(to:)` subscriptions into this property, cancelled when it goes.
    var assignments: ObservedAssignments?

    init(_ value: Value) { self.value = value }

    deinit { assignments?.cancelAll() }

    /// Sets the value as Combine's does: `objectWillChange` first, then the new value to
    /// the subscribers, then the store.
    func set(_ newValue: Value) {
        willChange?.send()
        subject?.send(newValue)
        value = newValue
    }

    /// The subject that `$property` subscribes to, made with the current value.
    var publisher: CurrentValueSubject<Value, Never> {
        if let subject { return subject }
        let made = CurrentValueSubject<Value, Never>(value)
        subject = made
        return made
    }
}
