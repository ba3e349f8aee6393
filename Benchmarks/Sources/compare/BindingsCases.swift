import Bindings
import CMallocCounter

// Bindings' side. The models live in this module, as a user's would, and every operation
// runs in an `@inline(never)` function that takes the model as a parameter.

final class BindingsModel: KeyValueObservable {
    @Observed var value = 0
}

final class BindingsPair: KeyValueObservable {
    @Observed var a = 0
    @Observed var b = 0
    /// A computed property with two dependencies, found by tracking.
    var sum: Int { a + b }
}

final class BindingsChild: KeyValueObservable {
    @Observed var value = 0
}

final class BindingsRoot: KeyValueObservable {
    @Observed var child = BindingsChild()
}

/// The owner of a binding.
final class BindingsTarget: BindingOwner {
    var number = 0
    var subscriptions = Set<AnyCancellable>()
}

// MARK: Operations

@inline(never)
func bindingsSet(_ model: BindingsModel, _ count: Int) {
    for i in 0..<count { model.value = i }
}

/// Sets with an opaque call after each, so that stores nobody reads are not deleted.
@inline(never)
func bindingsSetOpaque(_ model: BindingsModel, _ count: Int) {
    for i in 0..<count {
        model.value = i
        bench_opaque(Unmanaged.passUnretained(model).toOpaque())
    }
}

@inline(never)
func bindingsSetA(_ model: BindingsPair, _ count: Int) {
    for i in 0..<count { model.a = i }
}

@inline(never)
func bindingsSetNested(_ model: BindingsRoot, _ count: Int) {
    for i in 0..<count { model.child.value = i }
}

@inline(never)
func bindingsSend(_ subject: CurrentValueSubject<Int, Never>, _ count: Int) {
    for i in 0..<count { subject.send(i) }
}

@inline(never)
func bindingsSubscribeCancel(_ model: BindingsModel, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let subscription = model.$value.sink { counter.total &+= $0 }
        subscription.cancel()
    }
}

@inline(never)
func bindingsSubscribe(_ model: BindingsModel, _ counter: Counter, _ count: Int, into subscriptions: inout [AnyCancellable]) {
    for _ in 0..<count {
        subscriptions.append(model.$value.sink { counter.total &+= $0 })
    }
}

@inline(never)
func bindingsCancel(_ subscriptions: [AnyCancellable]) {
    for subscription in subscriptions { subscription.cancel() }
}

// MARK: Sides

enum BindingsCases {
    static func setNotify(_ counter: Counter, subscribers: Int) -> Run {
        let model = BindingsModel()
        var subscriptions: [AnyCancellable] = []
        bindingsSubscribe(model, counter, subscribers, into: &subscriptions)
        return { count in
            withExtendedLifetime(subscriptions) { timed { bindingsSet(model, count) } }
        }
    }

    /// A model that nobody ever observed.
    static func setUnobserved() -> Run {
        let model = BindingsModel()
        return { count in timed { bindingsSetOpaque(model, count) } }
    }

    /// A model that was observed, and whose observers all cancelled.
    static func setAfterObserversLeft(_ counter: Counter) -> Run {
        let model = BindingsModel()
        var subscriptions: [AnyCancellable] = []
        bindingsSubscribe(model, counter, 2, into: &subscriptions)
        bindingsCancel(subscriptions)
        return { count in timed { bindingsSetOpaque(model, count) } }
    }

    static func subscribeCancel(_ counter: Counter) -> Run {
        let model = BindingsModel()
        return { count in timed { bindingsSubscribeCancel(model, counter, count) } }
    }

    static func computed(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let subscription = model.publisher(for: \.sum).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSetA(model, count) } }
        }
    }

    static func nested(_ counter: Counter) -> Run {
        let model = BindingsRoot()
        let subscription = model.publisher(for: \.child.value).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSetNested(model, count) } }
        }
    }

    /// `publisher(for:)` and the generic `sink`: a `Subscribers.Sink` behind a
    /// `PropertySubscription`, the path that operators take.
    /// The listener API: `$value.bind(listener) { listener, value in ... }`.
    static func listener(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let target = BindingsTarget()
        model.$value.bind(target) { target, value in target.number = value }
        return { count in
            let elapsed = timed { bindingsSet(model, count) }
            counter.total &+= target.number
            return elapsed
        }
    }

    static func genericSink(_ counter: Counter) -> Run {
        let model = BindingsModel()
        // `sink(receiveValue:)` on this publisher takes the fast path of `$value.sink`; the
        // two-closure `sink` is `Publisher`'s, which operators' subscribers take too.
        let subscription = model.publisher(for: \.value).sink(receiveCompletion: { _ in }) { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSet(model, count) } }
        }
    }

    static func observe(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let token = model.observe(\.value, options: [.new]) { _, change in counter.total &+= change.newValue! }
        return { count in
            withExtendedLifetime(token) { timed { bindingsSet(model, count) } }
        }
    }

    static func currentValueSubject(_ counter: Counter) -> Run {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscription = subject.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSend(subject, count) } }
        }
    }

    /// `target.reactive.number <~ model.reactive.value`, the spec's form of a binding; the
    /// target's value goes into the counter after each batch.
    static func bindingIntoOwner(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let target = BindingsTarget()
        target.reactive.number <~ model.reactive.value
        return { count in
            let elapsed = timed { bindingsSet(model, count) }
            counter.total &+= target.number
            return elapsed
        }
    }

    static func setOneOfWide(_ counter: Counter) -> Run {
        let model = WideModel()
        let subscriptions = model.observeAll { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscriptions) { timed { compare.setOneOfWide(model, count) } }
        }
    }

    /// Cancels random subscriptions, `plan.batchSize` per timed batch, each of a model with
    /// `plan.perModel` live subscriptions; re-subscribes them (untimed) after each batch.
    static func cancelOne(_ counter: Counter, plan: CancelPlan) -> Run {
        let models = (0..<plan.models).map { _ in BindingsModel() }
        var subscriptions: [[AnyCancellable]] = models.map { model in
            var list: [AnyCancellable] = []
            list.reserveCapacity(plan.perModel)
            bindingsSubscribe(model, counter, plan.perModel, into: &list)
            return list
        }
        var plan = plan
        var targets: [AnyCancellable] = []
        return { count in
            var elapsed: UInt64 = 0
            var done = 0
            while done < count {
                let batch = plan.nextBatch()
                targets.removeAll(keepingCapacity: true)
                for (model, index) in batch { targets.append(subscriptions[model][index]) }
                elapsed &+= timed { bindingsCancel(targets) }
                targets.removeAll(keepingCapacity: true)
                for (model, index) in batch {
                    subscriptions[model][index] = models[model].$value.sink { counter.total &+= $0 }
                }
                done += batch.count
            }
            return elapsed * UInt64(count) / UInt64(done)
        }
    }

    // MARK: Memory and allocations

    /// malloc's bytes in use after `count` more subscriptions to one property, minus
    /// before, divided by `count` (the first subscription, which creates the property's
    /// channel, is made before).
    static func bytesPerSubscription(_ counter: Counter, count: Int) -> Double {
        let model = BindingsModel()
        let first = model.$value.sink { counter.total &+= $0 }
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(count)
        let before = bench_malloc_bytes_in_use()
        bindingsSubscribe(model, counter, count, into: &subscriptions)
        let after = bench_malloc_bytes_in_use()
        withExtendedLifetime(first) {}
        bindingsCancel(subscriptions)
        return (Double(after) - Double(before)) / Double(count)
    }

    /// Heap allocations while setting a property with one subscriber, per set, after a
    /// warm-up.
    static func allocationsPerNotification(_ counter: Counter, sets: Int) -> Double {
        let model = BindingsModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        bindingsSet(model, 1000)
        bench_allocations_start()
        bindingsSet(model, sets)
        let allocations = bench_allocations_stop()
        withExtendedLifetime(subscription) {}
        return Double(allocations) / Double(sets)
    }

    /// The allocations of one more `sink` subscription to a property that has some.
    static func allocationsOfSubscription(_ counter: Counter) -> (count: Int, sizes: [Int]) {
        let model = BindingsModel()
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(16)
        bindingsSubscribe(model, counter, 9, into: &subscriptions)
        let counted = countAllocations { bindingsSubscribe(model, counter, 1, into: &subscriptions) }
        bindingsCancel(subscriptions)
        return counted
    }

    /// Heap allocations per set of a property that a computed and a nested key path depend on.
    static func allocationsPerDerivedNotification(_ counter: Counter, sets: Int) -> (computed: Double, nested: Double) {
        let pair = BindingsPair()
        let root = BindingsRoot()
        let subscriptions = [
            pair.publisher(for: \.sum).sink { counter.total &+= $0 },
            root.publisher(for: \.child.value).sink { counter.total &+= $0 },
        ]
        bindingsSetA(pair, 100)
        bindingsSetNested(root, 100)
        let computed = countAllocations { bindingsSetA(pair, sets) }.count
        let nested = countAllocations { bindingsSetNested(root, sets) }.count
        withExtendedLifetime(subscriptions) {}
        return (Double(computed) / Double(sets), Double(nested) / Double(sets))
    }

    /// Heap allocations of one subscribe + cancel.
    static func allocationsPerSubscribeCancel(_ counter: Counter, count: Int) -> Double {
        let model = BindingsModel()
        bindingsSubscribeCancel(model, counter, 100)
        bench_allocations_start()
        bindingsSubscribeCancel(model, counter, count)
        return Double(bench_allocations_stop()) / Double(count)
    }
}
