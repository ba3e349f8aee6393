import OpenCombine

// OpenCombine's side of the rows of issue #13: the same code.

@inline(never)
func openCombineSendPassthrough(_ subject: PassthroughSubject<Int, Never>, _ count: Int) {
    for i in 0..<count { subject.send(i) }
}

enum OpenCombineOperatorCases {
    static func pipeline(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject
            .map { $0 &+ 1 }
            .filter { $0 & 1 == 0 }
            .removeDuplicates()
            .scan(0) { $0 &+ $1 }
            .sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSendPassthrough(subject, count) } }
        }
    }

    static func share(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let shared = subject.share()
        let subscriptions = (0..<10).map { _ in shared.sink { counter.total &+= $0 } }
        return { count in
            withExtendedLifetime(subscriptions) { timed { openCombineSendPassthrough(subject, count) } }
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
            withExtendedLifetime(subscriptions) { timed { openCombineSendPassthrough(subject, count) } }
        }
    }

    static func receiveOnImmediate(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.receive(on: ImmediateScheduler.shared).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSendPassthrough(subject, count) } }
        }
    }

    static func assign(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let target = AssignTarget()
        let subscription = subject.assign(to: \.number, on: target)
        return { count in
            let elapsed = withExtendedLifetime(subscription) { timed { openCombineSendPassthrough(subject, count) } }
            counter.total &+= target.number
            return elapsed
        }
    }

    static func assignToProperty(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let model = OpenCombineModel()
        subject.assign(to: &model.$value)
        return { count in
            let elapsed = timed { openCombineSendPassthrough(subject, count) }
            counter.total &+= model.value
            return elapsed
        }
    }

    static func flatMapJust(_ counter: Counter) -> Run {
        let subject = PassthroughSubject<Int, Never>()
        let subscription = subject.flatMap { Just($0) }.sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { openCombineSendPassthrough(subject, count) } }
        }
    }
}
