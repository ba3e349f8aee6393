extension Publishers {
    /// How ``Publisher/collect(_:options:)`` decides when to publish what it collected,
    /// as in Combine.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// Publish what was collected every interval of the scheduler's time.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// Publish what was collected every interval, or as soon as it holds the given
        /// number of elements, whichever comes first.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that collects its upstream's elements and publishes them as arrays,
    /// periodically (or when an array is full), as in Combine. Create one with
    /// ``Publisher/collect(_:options:)``.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        /// The kind of values published: the upstream's elements, in arrays.
        public typealias Output = [Upstream.Output]
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// When to publish: every interval, or every interval or count.
        public let strategy: TimeGroupingStrategy<Context>
        /// Scheduler options for the periodic action.
        public let options: Context.SchedulerOptions?

        /// Creates a publisher that collects the elements of `upstream` by `strategy`.
        public init(upstream: Upstream, strategy: TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        /// Attaches `subscriber` to the upstream through the collecting subscription.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let scheduler: Context
            let interval: Context.SchedulerTimeType.Stride
            let count: Int?
            switch strategy {
            case let .byTime(context, stride):
                (scheduler, interval, count) = (context, stride, nil)
            case let .byTimeOrCount(context, stride, limit):
                // `fatalError`, not `precondition`: the message must survive -O builds.
                if limit < 1 {
                    fatalError(
                        "Bindings: collect(.byTimeOrCount(_, _, \(limit))) needs a count of 1 or more (the most elements in each array it publishes)")
                }
                (scheduler, interval, count) = (context, stride, limit)
            }
            upstream.subscribe(
                CollectByTimeInner<Upstream.Output, S, Context>(
                    downstream: subscriber, scheduler: scheduler, interval: interval, count: count, options: options))
        }
    }
}

extension Publisher {
    /// Collects elements by a time-grouping strategy, and publishes each group as an
    /// array, as in Combine.
    ///
    /// With `.byTime(scheduler, interval)`, every `interval` on `scheduler` the elements
    /// received since the last array are published as one (nothing, when none came).
    /// With `.byTimeOrCount(scheduler, interval, count)`, an array is also published as
    /// soon as it holds `count` elements; the period keeps its rhythm.
    ///
    /// ```swift
    /// let c = keystrokes
    ///     .collect(.byTime(DispatchQueue.main, .milliseconds(500)))
    ///     .sink { print("typed \($0.count) keys in the last half second") }
    /// ```
    ///
    /// - Threads: a periodic array arrives on `scheduler`; a full array, and the
    ///   completion, on the upstream's thread. Never two at once.
    /// - Demand: the subscriber's demand counts arrays. `.byTime` asks its upstream for
    ///   one element at a time, without end, as Combine does; `.byTimeOrCount` asks for
    ///   `count` elements per array requested. Elements that arrive while the subscriber
    ///   wants no array keep collecting (`.byTime`), or wait as full arrays
    ///   (`.byTimeOrCount`), until it asks.
    /// - Completion: when the upstream finishes, what was collected is published, then
    ///   `.finished` (both within demand); a failure drops what was collected and is
    ///   delivered at once.
    /// - Misuse: a count below 1 stops the program when a subscriber attaches, and a
    ///   request of zero arrays stops it too, as in Combine.
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>,
        options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

/// The subscription of ``Publishers/CollectByTime``: it collects elements into
/// `collecting`, closes an array on each period (when the subscriber can take it) or when
/// it is full, and delivers the closed arrays in order, within demand.
///
/// Two threads can have something to deliver: the scheduler's (a period) and the
/// upstream's (a full array, the completion). Whoever finds `isDelivering` false delivers
/// everything deliverable; the other leaves its work in `closed` or `completion` for it.
/// So the subscriber is never called twice at once, and never with the lock held.
final class CollectByTimeInner<Input, Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CombineReflectable
where Downstream.Input == [Input] {
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let interval: Context.SchedulerTimeType.Stride
    /// `nil` for `.byTime`; the size of a full array for `.byTimeOrCount`.
    private let count: Int?
    private let options: Context.SchedulerOptions?
    private let lock = Lock()
    // All of the following are guarded by `lock`.
    private var downstream: Downstream?
    /// `upstreamFinished`: what is left of `closed`, then `completion`, is due;
    /// `terminal`: cancelled, or the completion was taken to be delivered.
    private var status = UpstreamStatus.awaitingSubscription
    private var timer: (any Cancellable)?
    private var demand = Subscribers.Demand.none
    /// The array being filled.
    private var collecting: [Input] = []
    /// Arrays closed and not yet delivered, oldest first.
    private var closed: [[Input]] = []
    /// The upstream's completion, delivered once `closed` is empty.
    private var completion: Subscribers.Completion<Failure>?
    private var isDelivering = false

    init(
        downstream: Downstream, scheduler: Context, interval: Context.SchedulerTimeType.Stride, count: Int?,
        options: Context.SchedulerOptions?
    ) {
        self.downstream = downstream
        self.scheduler = scheduler
        self.interval = interval
        self.count = count
        self.options = options
    }

    var description: String { "CollectByTime" }

    func receive(subscription: any Subscription) {
        lock.lock()
        // `accept` last: when it succeeds it keeps the subscription, which must not then
        // be cancelled.
        guard let downstream, status.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
        // Weak: the scheduler holds the action until it is cancelled, and a subscription
        // nobody holds any more must be free to go (its deinit has nothing to do: the
        // periodic action finds it gone and does nothing until cancelled with it).
        let timer = scheduler.schedule(
            after: scheduler.now.advanced(by: interval), interval: interval, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in self?.periodEnded() }
        lock.lock()
        guard status.isSubscribed else {
            // Cancelled or completed while the subscriber received its subscription.
            lock.unlock()
            timer.cancel()
            return
        }
        self.timer = timer
        lock.unlock()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard status.isSubscribed else {
            lock.unlock()
            return .none
        }
        collecting.append(input)
        guard let count else {
            lock.unlock()
            // `.byTime` asks for one element at a time, without end, as Combine does.
            return .max(1)
        }
        guard collecting.count >= count else {
            lock.unlock()
            return .none
        }
        closed.append(collecting)
        collecting = []
        lock.unlock()
        deliver()
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // The upstream subscription is released after unlocking.
        guard let finishedUpstream = status.markUpstreamFinished() else {
            lock.unlock()
            return
        }
        let timer = self.timer.take()
        var dropped: ([Input], [[Input]]) = ([], [])
        switch completion {
        case .finished:
            if !collecting.isEmpty { closed.append(collecting) }
            collecting = []
        case .failure:
            // A failure is not held back behind arrays the subscriber has not asked for.
            dropped = (collecting, closed)
            (collecting, closed) = ([], [])
        }
        self.completion = completion
        lock.unlock()
        timer?.cancel()
        withExtendedLifetime((finishedUpstream, dropped)) {}
        deliver()
    }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        self.demand += demand
        let upstream = if case .subscribed(let subscription) = status { subscription } else { nil as (any Subscription)? }
        lock.unlock()
        if let count {
            upstream?.request(demand * count)
        } else {
            upstream?.request(.max(1))
        }
        deliver()
    }

    func cancel() {
        lock.lock()
        let upstream = status.terminate()
        let timer = self.timer.take()
        // A delivery under way holds its own copy of the downstream until it returns.
        let dropped = (downstream.take(), collecting, closed, completion)
        (collecting, closed, completion) = ([], [], nil)
        lock.unlock()
        timer?.cancel()
        upstream?.cancel()
        withExtendedLifetime(dropped) {}
    }

    /// The periodic action, on the scheduler: closes the array being filled when the
    /// subscriber can take it (else it goes on filling), then delivers.
    private func periodEnded() {
        lock.lock()
        guard status.isSubscribed else {
            lock.unlock()
            return
        }
        if !collecting.isEmpty, demand > closed.count {
            closed.append(collecting)
            collecting = []
        }
        lock.unlock()
        deliver()
    }

    /// Delivers the closed arrays within demand, then the completion once none is left;
    /// or, when another thread is delivering, leaves them to it.
    private func deliver() {
        lock.lock()
        guard !isDelivering else {
            lock.unlock()
            return
        }
        isDelivering = true
        var finished: Downstream?   // released after unlocking
        while let downstream {
            if demand > .none, !closed.isEmpty {
                let array = closed.removeFirst()
                demand -= 1
                lock.unlock()
                let more = downstream.receive(array)
                lock.lock()
                guard more > .none else { continue }
                demand += more
                if let count, case .subscribed(let upstream) = status {
                    lock.unlock()
                    upstream.request(more * count)
                    lock.lock()
                }
            } else if closed.isEmpty, let completion = completion.take() {
                status = .terminal
                finished = self.downstream.take()
                lock.unlock()
                downstream.receive(completion: completion)
                lock.lock()
            } else {
                break
            }
        }
        isDelivering = false
        lock.unlock()
        withExtendedLifetime(finished) {}
    }
}
