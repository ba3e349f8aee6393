import CMallocCounter
import OpenCombine

// OpenCombine's side: the same operations with `@Published` on an `ObservableObject`
// and `sink`, shaped exactly like BindingsCases.swift.

final class OpenCombineModel: ObservableObject {
    @Published var value = 0
}

final class OpenCombineChild: ObservableObject {
    @Published var value = 0
}

final class OpenCombineRoot: ObservableObject {
    @Published var child = OpenCombineChild()
}

final class OpenCombineTarget {
    var number = 0
}

// MARK: Operations

@inline(never)
func openCombineSet(_ model: OpenCombineModel, _ count: Int) {
    for i in 0..<count { model.value = i }
}

@inline(never)
func openCombineSetOpaque(_ model: OpenCombineModel, _ count: Int) {
    for i in 0..<count {
        model.value = i
        bench_opaque(Unmanaged.passUnretained(model).toOpaque())
    }
}

@inline(never)
func openCombineSetNested(_ model: OpenCombineRoot, _ count: Int) {
    for i in 0..<count { model.child.value = i }
}

@inline(never)
func openCombineSend(_ subject: CurrentValueSubject<Int, Never>, _ count: Int) {
    for i in 0..<count { subject.send(i) }
}

@inline(never)
func openCombineSubscribeCancel(_ model: OpenCombineModel, _ counter: Counter, _ count: Int) {
    for _ in 0..<count {
        let subscription = model.$value.sink { counter.total &+= $0 }
        subscription.cancel()
    }
}

@inline(never)
func openCombineSubscribe(_ model: OpenCombineModel, _ counter: Counter, _ count: Int, into subscriptions: inout [AnyCancellable]) {
    for _ in 0..<count {
        subscriptions.append(model.$value.sink { counter.total &+= $0 })
    }
}

@inline(never)
func openCombineCancel(_ subscriptions: [AnyCancellable]) {
    for subscription in subscriptions { subscription.cancel() }
}

// MARK: Sides

enum OpenCombineCases {
    static func setNotify(_ counter: Counter, subscribers: Int) -> Run {
        let model = OpenCombineModel()
        var subscriptions: [AnyCancellable] = []
        openCombineSubscribe(model, counter, subscribers, into: &subscriptions)
        return { count in
            withExtendedLifetime(subscriptions) { timed { openCombineSet(model, count) } }
        }
    }

    /// A model that nobody ever observed.
    static func setUnobserved() -> Run {
        let model = OpenCombineModel()
        return { count in timed { openCombineSetOpaque(model, count) } }
    }

    /// A model that was observed, and whose observers all cancelled.
    static func setAfterObserversLeft(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        var subscriptions: [AnyCancellable] = []
        openCombineSubscribe(model, counter, 2, into: &subscriptions)
        openCombineCancel(subscriptions)
        return { count in timed { openCombineSetOpaque(model, count) } }
    }

    static func subscribeCancel(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        return { count in timed { openCombineSubscribeCancel(model, counter, count) } }
    }

    /// OpenCombine has no key-path observation: the nested value is followed by hand with
    /// `map` and `switchToLatest`, which also re-subscribes when `child` is replaced.
    static func nested(_ counter: Counter) -> Run {
        let model = OpenCombineRoot()
        let subscription = model.$child.map { $0.$value }.switchToLatest().sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSetNested(model, count) } }
        }
    }

    /// OpenCombine's nearest to a binding: `assign(to:on:)`, which holds the target strongly.
    static func assign(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let target = OpenCombineTarget()
        let subscription = model.$value.assign(to: \.number, on: target)
        return { count in
            let elapsed = withExtendedLifetime(subscription) { timed { openCombineSet(model, count) } }
            counter.total &+= target.number
            return elapsed
        }
    }

    static func currentValueSubject(_ counter: Counter) -> Run {
        let subject = CurrentValueSubject<Int, Never>(0)
        let subscription = subject.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSend(subject, count) } }
        }
    }

    static func cancelOne(_ counter: Counter, plan: CancelPlan) -> Run {
        let models = (0..<plan.models).map { _ in OpenCombineModel() }
        var subscriptions: [[AnyCancellable]] = models.map { model in
            var list: [AnyCancellable] = []
            list.reserveCapacity(plan.perModel)
            openCombineSubscribe(model, counter, plan.perModel, into: &list)
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
                elapsed &+= timed { openCombineCancel(targets) }
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

    static func bytesPerSubscription(_ counter: Counter, count: Int) -> Double {
        let model = OpenCombineModel()
        let first = model.$value.sink { counter.total &+= $0 }
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(count)
        let before = bench_malloc_bytes_in_use()
        openCombineSubscribe(model, counter, count, into: &subscriptions)
        let after = bench_malloc_bytes_in_use()
        withExtendedLifetime(first) {}
        openCombineCancel(subscriptions)
        return (Double(after) - Double(before)) / Double(count)
    }

    static func allocationsPerNotification(_ counter: Counter, sets: Int) -> Double {
        let model = OpenCombineModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        openCombineSet(model, 1000)
        bench_allocations_start()
        openCombineSet(model, sets)
        let allocations = bench_allocations_stop()
        withExtendedLifetime(subscription) {}
        return Double(allocations) / Double(sets)
    }

    /// The allocations of one more `sink` subscription to a property that has some.
    static func allocationsOfSubscription(_ counter: Counter) -> (count: Int, sizes: [Int]) {
        let model = OpenCombineModel()
        var subscriptions: [AnyCancellable] = []
        subscriptions.reserveCapacity(16)
        openCombineSubscribe(model, counter, 9, into: &subscriptions)
        let counted = countAllocations { openCombineSubscribe(model, counter, 1, into: &subscriptions) }
        openCombineCancel(subscriptions)
        return counted
    }

    static func allocationsPerSubscribeCancel(_ counter: Counter, count: Int) -> Double {
        let model = OpenCombineModel()
        openCombineSubscribeCancel(model, counter, 100)
        bench_allocations_start()
        openCombineSubscribeCancel(model, counter, count)
        return Double(bench_allocations_stop()) / Double(count)
    }
}
