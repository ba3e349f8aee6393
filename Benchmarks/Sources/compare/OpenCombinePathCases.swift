import OpenCombine

/// In-place mutations, as `model.value += 1` in user code.
@inline(never)
func openCombineIncrement(_ model: OpenCombineModel, _ count: Int) {
    for _ in 0..<count { model.value += 1 }
}

// OpenCombine's side of the paths users take: the nearest Combine code for each.

final class OpenCombineNamed: ObservableObject {
    @Published var name = "Ada"
}

final class OpenCombinePlace: ObservableObject {
    @Published var address = Address(street: "", city: "", country: "")
}

@inline(never)
func openCombineSetAddress(_ model: OpenCombinePlace, _ addresses: [Address], _ count: Int) {
    for i in 0..<count { model.address = addresses[i & 3] }
}

final class OpenCombineLabel {
    var number = 0
    var text: String? = nil
    var other = 0
    var subscriptions = Set<AnyCancellable>()
}

@inline(never)
func openCombineSetName(_ model: OpenCombineNamed, _ names: [String], _ count: Int) {
    for i in 0..<count { model.name = names[i & 3] }
}

/// Creates an owner, assigns three of its properties, releases it. `assign(to:on:)` holds
/// its target strongly, so the three subscriptions go in a set of the caller's, whose end
/// cancels them and releases the owner (in the owner's own set they would keep it alive).
@inline(never)
func openCombineCreateAssignRelease(_ model: OpenCombineModel, _ named: OpenCombineNamed, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let label = OpenCombineLabel()
        var subscriptions = Set<AnyCancellable>()
        model.$value.assign(to: \.number, on: label).store(in: &subscriptions)
        named.$name.map(Optional.init).assign(to: \.text, on: label).store(in: &subscriptions)
        model.$value.assign(to: \.other, on: label).store(in: &subscriptions)
        counter.total &+= label.number
    }
}

@inline(never)
func openCombineSetEach(_ models: [OpenCombineModel], _ count: Int) {
    var index = 0
    for i in 0..<count {
        models[index].value = i
        index = index == models.count - 1 ? 0 : index + 1
    }
}

enum OpenCombinePathCases {
    static func structSetNotify(_ counter: Counter) -> Run {
        let model = OpenCombinePlace()
        let subscription = model.$address.sink { counter.total &+= $0.city.utf8.count }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSetAddress(model, BindingsPathCases.addresses, count) } }
        }
    }

    static func incrementNotify(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { openCombineIncrement(model, count) } } }
    }

    static func liftedAssign(_ counter: Counter) -> Run {
        let model = OpenCombineNamed()
        let label = OpenCombineLabel()
        let subscription = model.$name.map(Optional.init).assign(to: \.text, on: label)
        return { count in
            let elapsed = withExtendedLifetime(subscription) { timed { openCombineSetName(model, BindingsPathCases.names, count) } }
            counter.total &+= label.text?.utf8.count ?? 0
            return elapsed
        }
    }

    static func createAssignRelease(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let named = OpenCombineNamed()
        return { count in timed { openCombineCreateAssignRelease(model, named, counter, count) } }
    }

    static func mapFilterChain(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let subscription = model.$value.map { $0 &* 2 }.filter { $0 & 2 == 0 }.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSet(model, count) } }
        }
    }

    static func manyModels(_ counter: Counter, models count: Int) -> Run {
        let models = (0..<count).map { _ in OpenCombineModel() }
        let subscriptions = models.map { model in model.$value.sink { counter.total &+= $0 } }
        return { count in
            withExtendedLifetime(subscriptions) { timed { openCombineSetEach(models, count) } }
        }
    }
}

@inline(never)
func openCombineAppend(_ subject: CurrentValueSubject<[Int], Never>, _ count: Int) {
    for i in 0..<count { subject.value.append(i) }
}

extension OpenCombinePathCases {
    /// The nearest Combine code for an observable array: a `CurrentValueSubject` of an
    /// array, appended to through `value`, with one `sink`; arrays of 1,000 elements, as
    /// on Bindings' side.
    static func arrayAppend(_ counter: Counter) -> Run {
        { count in
            var elapsed: UInt64 = 0
            var remaining = count
            while remaining > 0 {
                let appends = min(1_000, remaining)
                let subject = CurrentValueSubject<[Int], Never>([])
                let subscription = subject.sink { counter.total &+= $0.count }
                elapsed &+= timed { openCombineAppend(subject, appends) }
                remaining -= appends
                withExtendedLifetime(subscription) {}
            }
            return elapsed
        }
    }
}

final class OpenCombinePair: ObservableObject {
    @Published var a = 0
    @Published var b = 0
}

/// A new model each time, assigned into one reused label (a list's cell): its previous
/// subscriptions cancelled, two `assign(to:on:)` stored in its set.
@inline(never)
func openCombineAssignNewModels(_ label: OpenCombineLabel, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let model = OpenCombinePair()
        label.subscriptions.removeAll(keepingCapacity: true)
        model.$a.assign(to: \.number, on: label).store(in: &label.subscriptions)
        model.$b.assign(to: \.other, on: label).store(in: &label.subscriptions)
        counter.total &+= label.number
    }
}

extension OpenCombinePathCases {
    static func assignNewModels(_ counter: Counter) -> Run {
        let label = OpenCombineLabel()
        return { count in timed { openCombineAssignNewModels(label, counter, count) } }
    }
}
