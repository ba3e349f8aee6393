import Bindings

// Bindings' side of the paths users take (issue #12): bindings, derived key paths,
// setup, subjects and chains. Shaped like BindingsCases.swift.

final class BindingsNamed: KeyValueObservable {
    @Observed var name = "Ada"
}

/// A value of several fields, as a user's model holds (a struct of three Strings).
struct Address: Equatable {
    var street: String
    var city: String
    var country: String
}

final class BindingsPlace: KeyValueObservable {
    @Observed var address = Address(street: "", city: "", country: "")
}

/// The owner of bindings of several kinds.
final class BindingsLabel: BindingOwner {
    var number = 0
    var text: String? = nil
    var other = 0
    var subscriptions = Set<AnyCancellable>()
}

/// In-place mutations (the property's `_modify`), as `model.value += 1` in user code.
@inline(never)
func bindingsIncrement(_ model: BindingsModel, _ count: Int) {
    for _ in 0..<count { model.value += 1 }
}

@inline(never)
func bindingsSetName(_ model: BindingsNamed, _ names: [String], _ count: Int) {
    for i in 0..<count { model.name = names[i & 3] }
}

/// Sets one of four addresses, made before the loop.
@inline(never)
func bindingsSetAddress(_ model: BindingsPlace, _ addresses: [Address], _ count: Int) {
    for i in 0..<count { model.address = addresses[i & 3] }
}

/// Creates an owner, binds three of its properties, releases it.
@inline(never)
func bindingsCreateBindRelease(_ model: BindingsModel, _ named: BindingsNamed, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let label = BindingsLabel()
        label.reactive.number <~ model.reactive.value
        label.reactive.text <~ named.reactive.name
        label.reactive.other <~ model.reactive.value
        counter.total &+= label.number
    }
}

@inline(never)
func bindingsSubscribeCancelComputed(_ model: BindingsPair, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let subscription = model.publisher(for: \.sum).sink { counter.total &+= $0 }
        subscription.cancel()
    }
}

/// Subscribe, cancel, then set a dependency: the set makes the idle observation leave, so
/// each subscription makes and links the observation again (the path without reuse).
@inline(never)
func bindingsSubscribeCancelSetComputed(_ model: BindingsPair, _ counter: Counter, _ count: Int) {
    for i in 0..<count {
        let subscription = model.publisher(for: \.sum).sink { counter.total &+= $0 }
        subscription.cancel()
        model.a = i
    }
}

@inline(never)
func bindingsUpdate(_ value: ObservableValue<Int>, _ count: Int) {
    for i in 0..<count { value.update(i) }
}

/// Sets each model's value once: one operation per model.
@inline(never)
func bindingsSetEach(_ models: [BindingsModel], _ count: Int) {
    var index = 0
    for i in 0..<count {
        models[index].value = i
        index = index == models.count - 1 ? 0 : index + 1
    }
}

enum BindingsPathCases {
    static let names = ["Ada", "Grace", "Mary", "Edith"]
    /// Four addresses of Strings too long to be stored inline (each is a heap object).
    static let addresses = (0..<4).map { i in
        Address(street: "\(i) Analytical Engine Street", city: "London, borough \(i)", country: "United Kingdom of \(i)")
    }

    /// `$address.sink` on a property whose value is a struct of three Strings.
    static func structSetNotify(_ counter: Counter) -> Run {
        let model = BindingsPlace()
        let subscription = model.$address.sink { counter.total &+= $0.city.utf8.count }
        return { count in withExtendedLifetime(subscription) { timed { bindingsSetAddress(model, addresses, count) } } }
    }

    static func incrementNotify(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { bindingsIncrement(model, count) } } }
    }

    static func liftedBinding(_ counter: Counter) -> Run {
        let model = BindingsNamed()
        let label = BindingsLabel()
        label.reactive.text <~ model.reactive.name
        return { count in
            let elapsed = timed { bindingsSetName(model, names, count) }
            counter.total &+= label.text?.utf8.count ?? 0
            return elapsed
        }
    }

    static func createBindRelease(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let named = BindingsNamed()
        return { count in timed { bindingsCreateBindRelease(model, named, counter, count) } }
    }

    static func computedBinding(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let label = BindingsLabel()
        label.reactive.number <~ model.reactive.sum
        return { count in
            let elapsed = timed { bindingsSetA(model, count) }
            counter.total &+= label.number
            return elapsed
        }
    }

    /// `observe(_:options:)` of the computed key path, KVO's change handler.
    static func computedObserve(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let token = model.observe(\.sum, options: [.new]) { _, change in counter.total &+= change.newValue! }
        return { count in
            withExtendedLifetime(token) { timed { bindingsSetA(model, count) } }
        }
    }

    static func computedSubscribeCancel(_ counter: Counter) -> Run {
        let model = BindingsPair()
        return { count in timed { bindingsSubscribeCancelComputed(model, counter, count) } }
    }

    static func computedSubscribeCancelSet(_ counter: Counter) -> Run {
        let model = BindingsPair()
        return { count in timed { bindingsSubscribeCancelSetComputed(model, counter, count) } }
    }

    static func observeOldNew(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let token = model.observe(\.value, options: [.old, .new]) { _, change in
            counter.total &+= change.newValue! &- change.oldValue!
        }
        return { count in
            withExtendedLifetime(token) { timed { bindingsSet(model, count) } }
        }
    }

    static func observableValue(_ counter: Counter) -> Run {
        let value = ObservableValue(0)
        let subscription = value.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsUpdate(value, count) } }
        }
    }

    static func mapFilterChain(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let subscription = model.$value.map { $0 &* 2 }.filter { $0 & 2 == 0 }.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSet(model, count) } }
        }
    }

    static func manyModels(_ counter: Counter, models count: Int) -> Run {
        let models = (0..<count).map { _ in BindingsModel() }
        let subscriptions = models.map { model in model.$value.sink { counter.total &+= $0 } }
        return { count in
            withExtendedLifetime(subscriptions) { timed { bindingsSetEach(models, count) } }
        }
    }
}
