import Bindings

// The rows of issue #13 ("Combine parity"): a pipeline of operators on a subject, and
// `share()` with 10 subscribers; the same code as OpenCombine's side.

@inline(never)
func bindingsSendPassthrough(_ subject: PassthroughSubject<Int, Never>, _ count: Int) {
    for i in 0..<count { subject.send(i) }
}

enum BindingsOperatorCases {
    /// `map`, `filter`, `removeDuplicates`, `scan`, `sink` on a `PassthroughSubject`; a
    /// send is timed (half the values pass the filter).
    static func pipeline(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject
            .map { $0 &+ 1 }
            .filter { $0 & 1 == 0 }
            .removeDuplicates()
            .scan(0) { $0 &+ $1 }
            .sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSendPassthrough(subject, count) } }
        }
    }

    /// `share()` of a `PassthroughSubject` with 10 `sink` subscribers; a send (delivered
    /// to all 10) is timed.
    static func share(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let subscriptions = (0..<10).map { _ in shared.sink { counter.total &+= $0 } }
        return { count in
            withExtendedLifetime(subscriptions) { timed { bindingsSendPassthrough(subject, count) } }
        }
    }

    /// The same with `sink(receiveCompletion:receiveValue:)`: a `Subscribers.Sink` each.
    static func shareWithCompletion(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let subscriptions = (0..<10).map { _ in
            shared.sink(receiveCompletion: { _ in }, receiveValue: { counter.total &+= $0 })
        }
        return { count in
            withExtendedLifetime(subscriptions) { timed { bindingsSendPassthrough(subject, count) } }
        }
    }

    /// `receive(on: ImmediateScheduler.shared)` then `sink`: the scheduling operator's own
    /// cost, with no thread hop.
    static func receiveOnImmediate(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.receive(on: ImmediateScheduler.shared).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSendPassthrough(subject, count) } }
        }
    }

    /// `assign(to:on:)` of a subject into an object's property.
    static func assign(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let target = AssignTarget()
        let subscription = subject.assign(to: \.number, on: target)
        return { count in
            let elapsed = withExtendedLifetime(subscription) { timed { bindingsSendPassthrough(subject, count) } }
            counter.total &+= target.number
            return elapsed
        }
    }

    /// `assign(to: &model.$value)` of a subject: each value set on an `@Observed` property.
    static func assignToProperty(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let model = BindingsModel()
        subject.assign(to: &model.$value)
        return { count in
            let elapsed = timed { bindingsSendPassthrough(subject, count) }
            counter.total &+= model.value
            return elapsed
        }
    }

    /// `flatMap { Just($0) }`: each value subscribes to a new inner publisher.
    static func flatMapJust(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.flatMap { Just($0) }.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSendPassthrough(subject, count) } }
        }
    }
}

extension BindingsOperatorCases {
    /// `$a.combineLatest($b).sink`, a set of `a` timed (OpenCombine 0.14 has no
    /// `combineLatest`).
    static func combineLatest(_ counter: Counter) -> Run {
        let pair = BindingsPair()
        let subscription = pair.$a.combineLatest(pair.$b).sink { counter.total &+= $0.0 &+ $0.1 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSetA(pair, count) } }
        }
    }

    /// `$a.merge(with: $b).sink`, a set of `a` timed (OpenCombine 0.14 has no `merge`).
    static func merge(_ counter: Counter) -> Run {
        let pair = BindingsPair()
        let subscription = pair.$a.merge(with: pair.$b).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsSetA(pair, count) } }
        }
    }
}

/// The object that the `assign(to:on:)` rows write into (both libraries').
final class AssignTarget {
    var number = 0
}
