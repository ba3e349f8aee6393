// The operations of the model-based test, and their seeded generator.
//
// A world has two models (each with `a`, `b`, `flag`, a replaceable `child` with `x`,
// the computed `sum` = a + b and `pick` = flag ? a : b) and one `ObservableValue`.
// Observers watch a target through one of the library's APIs, and may carry a reaction:
// something they do from inside their callback (a nested set, a removal, an addition).

/// What an observer watches.
enum RelModelTarget: Equatable, CustomStringConvertible {
    case model(Int, RelModelKey)
    case value

    var description: String {
        switch self {
        case .model(let index, let key): "m\(index).\(key)"
        case .value: "value"
        }
    }
}

enum RelModelKey: CaseIterable, CustomStringConvertible {
    case a, b, flag, sum, pick, chainX

    /// An `@Observed` property of the model itself (else a computed or chained key path).
    var isDirect: Bool { self == .a || self == .b || self == .flag }

    var description: String {
        switch self {
        case .a: "a"
        case .b: "b"
        case .flag: "flag"
        case .sum: "sum"
        case .pick: "pick"
        case .chainX: "child.x"
        }
    }
}

/// How an observer is attached.
enum RelModelAPI: Equatable, CustomStringConvertible {
    /// `model.$a.sink` (direct keys), `value.sink`.
    case projection
    /// `publisher(for:options:)` with `[.initial, .new]` or `[.new]`, then `sink`.
    case publisher(initial: Bool)
    /// `observe(_:options:changeHandler:)` with `[.initial, .new]` or `[.new]`.
    case observe(initial: Bool)
    /// `publisher(for:).map { }.filter { }.sink`.
    case operators
    /// `publisher.bind(to: owner) { }`; removed by releasing the owner.
    case bindInline
    /// `owner.reactive.received <~ publisher`; removed by releasing the owner.
    case bindOperator
    /// `$a.bind(listener, skipInitialValue:)`; removed by `unbind`.
    case listener(skipInitial: Bool)

    var initial: Bool {
        switch self {
        case .publisher(let initial), .observe(let initial): initial
        case .listener(let skip): !skip
        default: true
        }
    }

    var description: String {
        switch self {
        case .projection: "projection"
        case .publisher(let initial): initial ? "publisher" : "publisher(new)"
        case .observe(let initial): initial ? "observe" : "observe(new)"
        case .operators: "operators"
        case .bindInline: "bind(to:)"
        case .bindOperator: "<~"
        case .listener(let skip): skip ? "listener(skip)" : "listener"
        }
    }
}

/// A set of one stored value.
enum RelModelSet: CaseIterable, CustomStringConvertible {
    case a, b, flag, childX, replaceChild

    var description: String {
        switch self {
        case .a: "a"
        case .b: "b"
        case .flag: "flag.toggle()"
        case .childX: "child.x"
        case .replaceChild: "child = new"
        }
    }
}

struct RelModelObserverSpec: CustomStringConvertible {
    let target: RelModelTarget
    let api: RelModelAPI
    let reaction: RelModelReaction?

    var description: String {
        "\(target) via \(api)" + (reaction.map { ", reacting: \($0)" } ?? "")
    }
}

/// Something an observer does from its callback when `(value + its id) % modulus == 0`,
/// while the operation's budget of nested actions lasts.
struct RelModelReaction: CustomStringConvertible {
    let modulus: Int
    let action: RelModelAction

    var description: String { "every \(modulus): \(action)" }
}

indirect enum RelModelAction: CustomStringConvertible {
    case set(model: Int, RelModelSet)
    case update
    /// Removes the live observer at `pick % count` (itself included).
    case remove(pick: Int)
    case add(RelModelObserverSpec)

    var description: String {
        switch self {
        case .set(let model, let what): "m\(model).\(what) = next"
        case .update: "value.update(next)"
        case .remove(let pick): "remove #\(pick)"
        case .add(let spec): "add (\(spec))"
        }
    }
}

/// The operation sequence of one seed.
enum RelModelGenerator {
    static let models = 2
    /// Nested actions allowed per top-level operation (it bounds reaction cascades).
    static let budget = 8

    /// The channels whose observers are counted: the value, then each model's.
    static let channelNames = ["value"] + (0..<models).flatMap { index in
        ["a", "b", "flag", "child", "child.x"].map { "m\(index).\($0)" }
    }

    static func operations(seed: UInt64, count: Int) -> [RelModelAction] {
        var random = RelRandom(seed: seed)
        var operations: [RelModelAction] = []
        for _ in 0..<4 { operations.append(.add(spec(&random, depth: 0))) }
        while operations.count < count {
            let roll = random.below(100)
            if roll < 45 {
                operations.append(.set(model: random.below(models), set(&random)))
            } else if roll < 55 {
                operations.append(.update)
            } else if roll < 80 {
                operations.append(.add(spec(&random, depth: 0)))
            } else {
                operations.append(.remove(pick: random.below(1_000)))
            }
        }
        return operations
    }

    static func set(_ random: inout RelRandom) -> RelModelSet {
        // Stored values most often; chain replacements and dependency switches too.
        switch random.below(10) {
        case 0...2: .a
        case 3...5: .b
        case 6: .flag
        case 7, 8: .childX
        default: .replaceChild
        }
    }

    static func spec(_ random: inout RelRandom, depth: Int) -> RelModelObserverSpec {
        let target: RelModelTarget = random.below(8) == 0
            ? .value
            : .model(random.below(models), RelModelKey.allCases[random.below(RelModelKey.allCases.count)])
        var apis: [RelModelAPI] = [.operators, .bindInline, .bindOperator]
        switch target {
        case .value:
            apis += [.projection, .listener(skipInitial: false), .listener(skipInitial: true)]
        case .model(_, let key):
            apis += [.publisher(initial: true), .publisher(initial: false), .observe(initial: true), .observe(initial: false)]
            if key.isDirect { apis += [.projection, .listener(skipInitial: false), .listener(skipInitial: true)] }
        }
        let api = apis[random.below(apis.count)]
        var reaction: RelModelReaction?
        if depth < 2, random.chance(45) {
            let action: RelModelAction
            switch random.below(20) {
            case 0..<8: action = .set(model: random.below(models), set(&random))
            case 8..<11: action = .update
            case 11..<15: action = .remove(pick: random.below(1_000))
            default: action = .add(spec(&random, depth: depth + 1))
            }
            reaction = RelModelReaction(modulus: 1 + random.below(3), action: action)
        }
        return RelModelObserverSpec(target: target, api: api, reaction: reaction)
    }
}

/// What the model-based test drives: the library, or the reference model.
protocol RelModelSystem: AnyObject {
    /// Sets a stored value (`value` is ignored by `.flag`, which toggles).
    func set(model: Int, _ what: RelModelSet, value: Int)
    func update(_ value: Int)
    /// Attaches observer `id`; `receive` is its callback.
    func add(id: Int, _ spec: RelModelObserverSpec, receive: @escaping (Int) -> Void)
    func remove(id: Int)
    /// The current value of a target.
    func current(_ target: RelModelTarget) -> Int
    /// How many observers each channel has (dependency links included), in the order of
    /// ``RelModelGenerator/channelNames``.
    func observerCounts() -> [Int]
}

/// Runs a sequence of operations against a system, and records what every observer
/// receives. The same driver runs the library and the reference model, so that the only
/// difference between the two runs is the system.
final class RelModelDriver {
    let system: any RelModelSystem
    private(set) var logs: [Int: [Int]] = [:]
    private(set) var specs: [Int: RelModelObserverSpec] = [:]
    /// Observers fully attached and not removed, in attachment order.
    private(set) var live: [Int] = []
    private(set) var actions = 0
    /// Observers that received something since the last ``takeTouched()``.
    private var touched: Set<Int> = []
    private var nextID = 0
    private var nextValue = 0
    private var budget = 0

    init(system: any RelModelSystem) { self.system = system }

    func run(_ operation: RelModelAction) {
        budget = RelModelGenerator.budget
        perform(operation)
    }

    private func perform(_ action: RelModelAction) {
        actions += 1
        switch action {
        case .set(let model, let what):
            nextValue += 1
            system.set(model: model, what, value: nextValue)
        case .update:
            nextValue += 1
            system.update(nextValue)
        case .remove(let pick):
            guard !live.isEmpty else { return }
            let id = live.remove(at: pick % live.count)
            system.remove(id: id)
        case .add(let spec):
            let id = nextID
            nextID += 1
            specs[id] = spec
            logs[id] = []
            system.add(id: id, spec) { [unowned self] value in received(id, value) }
            live.append(id)
        }
    }

    func takeTouched() -> Set<Int> {
        defer { touched.removeAll(keepingCapacity: true) }
        return touched
    }

    private func received(_ id: Int, _ value: Int) {
        logs[id, default: []].append(value)
        touched.insert(id)
        guard let reaction = specs[id]?.reaction, budget > 0,
              (value + id).magnitude % UInt(reaction.modulus) == 0
        else { return }
        budget -= 1
        perform(reaction.action)
    }
}
