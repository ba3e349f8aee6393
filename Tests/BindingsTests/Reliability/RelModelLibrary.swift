@testable import Bindings

final class RelModelChild: KeyValueObservable {
    @Observed var x: Int
    init(x: Int) { self.x = x }
}

final class RelModelModel: KeyValueObservable {
    @Observed var a = 0
    @Observed var b = 0
    @Observed var flag = false
    @Observed var child = RelModelChild(x: 0)
    var sum: Int { a + b }
    var pick: Int { flag ? a : b }
}

/// A binding owner that hands what it is given to the test.
final class RelModelOwner: BindingOwner {
    var subscriptions = Set<AnyCancellable>()
    let receive: (Int) -> Void
    init(_ receive: @escaping (Int) -> Void) { self.receive = receive }

    /// The target of `<~`: setting it is receiving a value.
    var received: Int {
        get { 0 }
        set { receive(newValue) }
    }
}

final class RelModelListener {}

/// The library, driven by the model-based test.
final class RelModelLibrary: RelModelSystem {
    private let models = (0..<RelModelGenerator.models).map { _ in RelModelModel() }
    private let value = ObservableValue(0)

    private enum Handle {
        case cancellable(AnyCancellable)
        case token(KeyValueObservation)
        case owner(RelModelOwner)
        case listener(RelModelListener, unbind: () -> Void)
    }

    private var handles: [Int: Handle] = [:]

    func set(model index: Int, _ what: RelModelSet, value: Int) {
        let model = models[index]
        switch what {
        case .a: model.a = value
        case .b: model.b = value
        case .flag: model.flag.toggle()
        case .childX: model.child.x = value
        case .replaceChild: model.child = RelModelChild(x: value)
        }
    }

    func update(_ value: Int) { self.value.update(value) }

    func add(id: Int, _ spec: RelModelObserverSpec, receive: @escaping (Int) -> Void) {
        let handle: Handle
        switch spec.target {
        case .value:
            handle = attach(value, spec.api, receive: receive)
        case .model(let index, let key):
            let model = models[index]
            switch key {
            case .a: handle = attach(model, \.a, model.$a, spec.api, convert: { $0 }, receive: receive)
            case .b: handle = attach(model, \.b, model.$b, spec.api, convert: { $0 }, receive: receive)
            case .flag: handle = attach(model, \.flag, model.$flag, spec.api, convert: { $0 ? 1 : 0 }, receive: receive)
            case .sum: handle = attach(model, \.sum, nil, spec.api, convert: { $0 }, receive: receive)
            case .pick: handle = attach(model, \.pick, nil, spec.api, convert: { $0 }, receive: receive)
            case .chainX: handle = attach(model, \.child.x, nil, spec.api, convert: { $0 }, receive: receive)
            }
        }
        handles[id] = handle
    }

    private func attach<Value>(
        _ model: RelModelModel, _ keyPath: KeyPath<RelModelModel, Value>, _ projection: Observed<Value>.Publisher?,
        _ api: RelModelAPI, convert: @escaping (Value) -> Int, receive: @escaping (Int) -> Void
    ) -> Handle {
        switch api {
        case .projection:
            return .cancellable(projection!.sink { receive(convert($0)) })
        case .publisher(let initial):
            return .cancellable(model.publisher(for: keyPath, options: initial ? [.initial, .new] : [.new])
                .sink { receive(convert($0)) })
        case .observe(let initial):
            return .token(model.observe(keyPath, options: initial ? [.initial, .new] : [.new]) { _, change in
                receive(convert(change.newValue!))
            })
        case .operators:
            return .cancellable(model.publisher(for: keyPath).map(convert).filter { _ in true }.sink { receive($0) })
        case .bindInline:
            let owner = RelModelOwner(receive)
            model.publisher(for: keyPath).bind(to: owner) { owner, value in owner.receive(convert(value)) }
            return .owner(owner)
        case .bindOperator:
            let owner = RelModelOwner(receive)
            owner.reactive.received <~ model.reactive[dynamicMember: keyPath].map(convert)
            return .owner(owner)
        case .listener(let skip):
            let listener = RelModelListener()
            projection!.bind(listener, skipInitialValue: skip) { _, value in receive(convert(value)) }
            return .listener(listener, unbind: { [projection] in projection!.unbind(listener) })
        }
    }

    private func attach(_ value: ObservableValue<Int>, _ api: RelModelAPI, receive: @escaping (Int) -> Void) -> Handle {
        switch api {
        case .operators:
            return .cancellable(value.map { $0 }.filter { _ in true }.sink { receive($0) })
        case .bindInline:
            let owner = RelModelOwner(receive)
            value.bind(to: owner) { owner, value in owner.receive(value) }
            return .owner(owner)
        case .bindOperator:
            let owner = RelModelOwner(receive)
            owner.reactive.received <~ value
            return .owner(owner)
        case .listener(let skip):
            let listener = RelModelListener()
            value.bind(listener, skipInitialValue: skip) { _, value in receive(value) }
            return .listener(listener, unbind: { [value] in value.unbind(listener) })
        default:
            return .cancellable(value.sink { receive($0) })
        }
    }

    func remove(id: Int) {
        guard let handle = handles.removeValue(forKey: id) else { return }
        switch handle {
        case .cancellable(let cancellable): cancellable.cancel()
        case .token(let token): token.invalidate()
        case .owner: break   // released: the binding ends with it
        case .listener(_, let unbind): unbind()
        }
    }

    func current(_ target: RelModelTarget) -> Int {
        switch target {
        case .value: return value.value
        case .model(let index, let key):
            let model = models[index]
            switch key {
            case .a: return model.a
            case .b: return model.b
            case .flag: return model.flag ? 1 : 0
            case .sum: return model.sum
            case .pick: return model.pick
            case .chainX: return model.child.x
            }
        }
    }

    func observerCounts() -> [Int] {
        [value.channel.observerCount] + models.flatMap { model in
            [model.$a.channel.observerCount, model.$b.channel.observerCount, model.$flag.channel.observerCount,
             model.$child.channel.observerCount, model.child.$x.channel.observerCount]
        }
    }
}
