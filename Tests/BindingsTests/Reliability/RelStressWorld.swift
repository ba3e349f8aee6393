import BindingsTestSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Bindings

// The objects the stress tests work on. Models are confined to one thread each (their
// "home"): only that thread sets, subscribes to or releases them, as SPEC section 6
// requires of ordinary stored state; cancelling, invalidating and releasing owners happen
// on any thread.

final class RelStressChild: KeyValueObservable {
    @Observed var x: Int

    init(x: Int) { self.x = x }
}

final class RelStressModel: KeyValueObservable {
    @Observed var a = 0
    @Observed var b = 0
    @Observed var flag = false
    @Observed var echo = 0
    @Observed var child: RelStressChild
    /// The last value handed out; every set of `a`, `b`, `child.x` or `child` takes the
    /// next one, so that observers of `a`, `b`, `sum`, `echo` and `child.x` see strictly
    /// increasing values. Touched only on the home thread.
    var seq = 0
    var sum: Int { a + b }
    var pick: Int { flag ? a : b }
    let counter: LiveCounter

    init(counter: LiveCounter) {
        self.counter = counter
        child = RelStressChild(x: 0)
        counter.created.increment(ordering: .relaxed)
    }

    deinit { counter.destroyed.increment(ordering: .releasing) }

    func next() -> Int {
        seq += 1
        return seq
    }

    /// Sets every property that `sum`, `pick` and `child.x` read, so that an observation
    /// of them left idle (kept linked after its last observer left, until the next
    /// change) leaves. On the home thread.
    func touchEveryDependency() {
        a = next()
        b = next()
        flag.toggle()
        child.x = next()
    }
}

/// A binding owner. Its bound properties are atomics, because a binding to a shared
/// `ObservableValue` delivers on whichever thread updated the value.
final class RelStressOwner: BindingOwner {
    private let storedA = Atomic<Int>(Int.min)
    private let storedShared = Atomic<Int>(Int.min)
    var lastA: Int {
        get { storedA.load(ordering: .relaxed) }
        set { storedA.store(newValue, ordering: .relaxed) }
    }
    var lastShared: Int {
        get { storedShared.load(ordering: .relaxed) }
        set { storedShared.store(newValue, ordering: .relaxed) }
    }
    var subscriptions = Set<AnyCancellable>()
    let counter: LiveCounter
    /// The model whose `a` is bound, weakly (an owner must not keep a model alive).
    weak var model: RelStressModel?
    let sharedIndex: Int

    init(counter: LiveCounter, sharedIndex: Int) {
        self.counter = counter
        self.sharedIndex = sharedIndex
        counter.created.increment(ordering: .relaxed)
    }

    deinit { counter.destroyed.increment(ordering: .releasing) }
}

/// What one observer received, checked when the threads are done.
final class RelStressProbe: @unchecked Sendable {
    // `@unchecked Sendable`: `state` is behind its lock; the rest is immutable.

    enum Target: Equatable {
        case model(RelStressKey)
        case shared(Int)
        case subject
    }

    struct State {
        var count = 0
        var last = Int.min
        var disorder = 0
        /// For shared values: the last sequence number seen from each updating thread.
        var lastPerThread: [Int] = Array(repeating: -1, count: RelStressSetup.threads)
        var cancelled = false
        var countAtCancel = 0
        /// The last few values, for the message of a failed check.
        var recent: [Int] = []
        /// How the observer was attached, for the same message.
        var how = ""
        var afterCancel: [String] = []
    }

    let target: Target
    weak var model: RelStressModel?
    let state = Locked(State())

    init(target: Target, model: RelStressModel?) {
        self.target = target
        self.model = model
    }

    /// Records a value; `monotonic` targets must arrive strictly increasing.
    func record(_ value: Int) {
        state.withLock { state in
            state.count += 1
            switch target {
            case .model(let key):
                if key.isMonotonic, state.last != Int.min, value <= state.last { state.disorder += 1 }
            case .shared, .subject:
                // Values from one thread arrive in the order that thread sent them.
                let (thread, seq) = RelStressSetup.decode(value)
                if seq <= state.lastPerThread[thread] { state.disorder += 1 }
                state.lastPerThread[thread] = seq
            }
            state.last = value
            if state.recent.count == 8 { state.recent.removeFirst() }
            state.recent.append(value)
            if state.cancelled { state.afterCancel.append("\(value) on \(RelThreadName.current)") }
        }
    }

    func markCancelled(way: Int = 1) {
        state.withLock { state in
            state.cancelled = true
            state.countAtCancel = state.count
            state.afterCancel.append("cancelled (way \(way)) on \(RelThreadName.current)")
        }
    }
}

/// The key paths the stress tests observe on a model.
enum RelStressKey: CaseIterable {
    case a, b, sum, pick, echo, chainX

    var isMonotonic: Bool { self != .pick }

    func value(of model: RelStressModel) -> Int {
        switch self {
        case .a: model.a
        case .b: model.b
        case .sum: model.sum
        case .pick: model.pick
        case .echo: model.echo
        case .chainX: model.child.x
        }
    }

    var keyPath: KeyPath<RelStressModel, Int> {
        switch self {
        case .a: \.a
        case .b: \.b
        case .sum: \.sum
        case .pick: \.pick
        case .echo: \.echo
        case .chainX: \.child.x
        }
    }
}

enum RelStressSetup {
    static let threads = 8

    /// Shared values carry the updating thread and its own sequence number.
    static func encode(thread: Int, seq: Int) -> Int { thread * 100_000_000 + seq }

    static func decode(_ value: Int) -> (thread: Int, seq: Int) {
        (value / 100_000_000, value % 100_000_000)
    }
}

/// Something a thread made that any thread may end.
enum RelStressHandle {
    case cancellable(AnyCancellable, RelStressProbe)
    case token(KeyValueObservation, RelStressProbe)
    case listener(RelStressListener, ObservableValue<Int>, RelStressProbe)
}

extension RelStressHandle {
    var probe: RelStressProbe {
        switch self {
        case .cancellable(_, let probe), .token(_, let probe), .listener(_, _, let probe): probe
        }
    }

    var isToken: Bool {
        if case .token = self { true } else { false }
    }

    var isListener: Bool {
        if case .listener = self { true } else { false }
    }

    /// Ends the observation explicitly (listeners by `unbind`).
    func end(twice: Bool) {
        for _ in 0..<(twice ? 2 : 1) {
            switch self {
            case .cancellable(let cancellable, _): cancellable.cancel()
            case .token(let token, _): token.invalidate()
            case .listener(let listener, let value, _): value.unbind(listener)
            }
        }
    }
}

/// A listener for the listener API.
final class RelStressListener {}

/// The current thread, as a short name for failure messages.
enum RelThreadName {
    static var current: String {
        "\(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bitPattern: UInt(pthread_self())))) % 100_000)"
    }
}
