import Bindings

// The rows of issue #14 ("Beyond KVO"): batches, autorun, observable collections.

@inline(never)
func bindingsBatchSetAB(_ model: BindingsPair, _ count: Int) {
    for i in 0..<count {
        batchChanges {
            model.a = i
            model.b = i
        }
    }
}

enum BindingsBeyondKVOCases {
    /// A batch of 2 sets, with one observer of the computed key path over both: one
    /// notification per batch. Compared with one set + notify of that key path (the
    /// `computed` row).
    static func batchTwoSetsComputed(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let subscription = model.publisher(for: \.sum).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsBatchSetAB(model, count) } }
        }
    }

    /// `autorun` over 2 properties; a set of one of them runs it.
    static func autorunSet(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let reaction = autorun { counter.total &+= model.a &+ model.b }
        return { count in
            withExtendedLifetime(reaction) { timed { bindingsSetA(model, count) } }
        }
    }
}

@inline(never)
func bindingsAppend(_ array: ObservableArray<Int>, _ count: Int) {
    for i in 0..<count { array.append(i) }
}

extension BindingsBeyondKVOCases {
    /// `ObservableArray.append` with one `changes` subscriber: arrays of 1,000 elements
    /// built by appending, timed per append (making each array and its subscriber is not
    /// timed).
    static func observableArrayAppend(_ counter: Counter) -> Run {
        { count in
            var elapsed: UInt64 = 0
            var remaining = count
            while remaining > 0 {
                let appends = min(1_000, remaining)
                let array = ObservableArray<Int>()
                let subscription = array.changes.sink { counter.total &+= $0.changes.count }
                elapsed &+= timed { bindingsAppend(array, appends) }
                remaining -= appends
                withExtendedLifetime(subscription) {}
            }
            return elapsed
        }
    }
}

/// A model that is also an owner, as a view model or a form field is: its `@Observed`
/// properties are both sources and binding targets (`ReactiveProperty`).
final class BindingsField: KeyValueObservable, BindingOwner {
    @Observed var number = 0
    var subscriptions = Set<AnyCancellable>()
}

@inline(never)
func bindingsSetNumber(_ field: BindingsField, _ count: Int) {
    for i in 0..<count { field.number = i }
}

@inline(never)
func bindingsAppendThenEmpty(_ array: ObservableArray<Int>, _ count: Int) {
    for i in 0..<count { array.append(i) }
    array.removeAll(keepingCapacity: true)
}

extension BindingsBeyondKVOCases {
    /// `model.reactive.value <~> field.reactive.number`, set on the left (the right side is
    /// written, and its change, the binding's own echo, is recognised and dropped) or on
    /// the right (the left side is written back).
    static func twoWaySet(_ counter: Counter, onTheRight: Bool) -> Run {
        let model = BindingsModel()
        let field = BindingsField()
        model.reactive.value <~> field.reactive.number
        return { count in
            let elapsed = timed { onTheRight ? bindingsSetNumber(field, count) : bindingsSet(model, count) }
            counter.total &+= field.number &+ model.value
            return elapsed
        }
    }

    /// Sets of a model whose `value` `bind` bound into `target` (made before the loop),
    /// which `read` reads back after it.
    static func setBound<Target: AnyObject>(
        _ counter: Counter, into target: Target, reading read: @escaping (Target) -> Int,
        _ bind: (BindingsModel, Target) -> Void
    ) -> Run {
        let model = BindingsModel()
        bind(model, target)
        return { count in
            let elapsed = timed { bindingsSet(model, count) }
            counter.total &+= read(target)
            return elapsed
        }
    }

    /// `<~` into an `@Observed` property of a model that is also an owner.
    static func bindIntoModelOwner(_ counter: Counter) -> Run {
        setBound(counter, into: BindingsField(), reading: \.number) { model, field in
            field.reactive.number <~ model.reactive.value
        }
    }

    /// `<~` of a `map` of a property (an operator chain between source and target).
    static func bindMapped(_ counter: Counter) -> Run {
        setBound(counter, into: BindingsLabel(), reading: \.number) { model, label in
            label.reactive.number <~ model.reactive.value.map { $0 &* 2 }
        }
    }

    /// `bind(to:) { }`, the inline binding.
    static func inlineBinding(_ counter: Counter) -> Run {
        setBound(counter, into: BindingsLabel(), reading: \.number) { model, label in
            model.reactive.value.bind(to: label) { label, value in label.number = value }
        }
    }

    /// `ObservableArray.append` observed through a model's key path, `observe(\.tasks,
    /// options: [.new])` (KVO's indexed changes), arrays of 1,000 emptied after each
    /// 1,000 appends (the emptying, one changeset of 1,000 deletions, is counted in).
    static func observeArrayAppend(_ counter: Counter) -> Run {
        let board = BindingsBoard()
        let token = board.observe(\.tasks, options: [.new]) { _, change in
            counter.total &+= change.indexes == nil ? 0 : 1
        }
        return { count in
            var elapsed: UInt64 = 0
            var remaining = count
            while remaining > 0 {
                let appends = min(1_000, remaining)
                elapsed &+= timed { bindingsAppendThenEmpty(board.tasks, appends) }
                remaining -= appends
            }
            return withExtendedLifetime(token) { elapsed }
        }
    }
}

final class BindingsBoard: KeyValueObservable {
    let tasks = ObservableArray<Int>()
}

/// A new model each time, bound into one reused owner (a list's cell): its previous
/// bindings ended, two `<~` made.
@inline(never)
func bindingsBindNewModels(_ label: BindingsLabel, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let model = BindingsPair()
        label.subscriptions.removeAll(keepingCapacity: true)
        label.reactive.number <~ model.reactive.a
        label.reactive.other <~ model.reactive.b
        counter.total &+= label.number
    }
}

extension BindingsBeyondKVOCases {
    static func bindNewModels(_ counter: Counter) -> Run {
        let label = BindingsLabel()
        return { count in timed { bindingsBindNewModels(label, counter, count) } }
    }
}
