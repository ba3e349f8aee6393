/// A class whose changes are announced before they happen, as in Combine: the model
/// type that SwiftUI-era Combine code declares, with `@Published` properties. Provided so
/// that such code compiles unchanged; new code observes `@Observed` properties of a
/// ``KeyValueObservable`` class instead (after the change, with KVO's options).
///
/// ```swift
/// final class Settings: ObservableObject {
///     @Published var volume = 5
/// }
/// let settings = Settings()
/// let c = settings.objectWillChange.sink { print("about to change:", settings.volume) }
/// settings.volume = 7   // prints "about to change: 5"
/// ```
///
/// The default ``objectWillChange`` is one ``ObservableObjectPublisher`` per object,
/// shared by its `@Published` properties, each of which sends it before every set.
public protocol ObservableObject: AnyObject {
    /// The publisher that announces the object's changes.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// Sends before any `@Published` property of the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// The object's publisher, made the first time it is asked for and kept by its
    /// `@Published` properties (found by reflection, as Combine does), which send it
    /// before each set. An object with no `@Published` property gets a new one each
    /// time, which nothing sends.
    public var objectWillChange: ObservableObjectPublisher {
        var boxes: [any PublishedWillChangeSlot] = []
        var mirror: Mirror? = Mirror(reflecting: self)
        while let current = mirror {
            for child in current.children {
                if let property = child.value as? any PublishedProperty { boxes.append(property.willChangeSlot) }
            }
            mirror = current.superclassMirror
        }
        if let existing = boxes.lazy.compactMap({ $0.willChange }).first {
            for box in boxes where box.willChange == nil { box.willChange = existing }
            return existing
        }
        let made = ObservableObjectPublisher()
        for box in boxes { box.willChange = made }
        return made
    }
}

/// The publisher of an ``ObservableObject``'s changes, as in Combine: it sends `()`
/// before each change of a `@Published` property, and never completes.
///
/// ```swift
/// let c = settings.objectWillChange.sink { refresh() }
/// ```
public final class ObservableObjectPublisher: Publisher, Sendable {
    /// Nothing but the announcement.
    public typealias Output = Void
    /// It never fails.
    public typealias Failure = Never

    private let subject = PassthroughSubject<Void, Never>()

    /// Creates a publisher.
    public init() {}

    /// Attaches `subscriber`: it receives each announcement from now on.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        subject.subscribe(subscriber)
    }

    /// Not for use: `sink(receiveValue:)`'s own path (see `Publisher._fusedSink`).
    public func _fusedSink(_ receiveValue: @escaping (Output) -> Void) -> AnyCancellable? {
        subject._fusedSink(receiveValue)
    }

    /// Announces a change to every subscriber.
    public func send() {
        subject.send(())
    }
}

/// A `@Published` property, as `ObservableObject.objectWillChange` finds it by reflection.
protocol PublishedProperty {
    /// Where the property keeps the object's publisher.
    var willChangeSlot: any PublishedWillChangeSlot { get }
}

/// The slot of a `@Published` property that keeps its object's publisher, the same one in
/// all the object's properties.
protocol PublishedWillChangeSlot: AnyObject {
    var willChange: ObservableObjectPublisher? { get set }
}
