#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Publishers {
    /// A publisher that raises a debugger signal when a provided closure returns `true`,
    /// and otherwise passes everything through, as in Combine.
    ///
    /// ```swift
    /// let c = orders
    ///     .breakpoint(receiveOutput: { $0.total < 0 })   // stops in the debugger on a negative total
    ///     .sink { print($0) }
    /// ```
    ///
    /// The signal is `SIGTRAP`: a debugger stops there; without one, the program ends,
    /// as on Apple platforms. The closures run before the event goes on, without any lock
    /// held. It passes the upstream subscription to its subscriber.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// The kind of errors this publisher might publish: the upstream's.
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that runs when the publisher receives a subscription; `true` raises
        /// the debugger signal.
        public let receiveSubscription: ((any Subscription) -> Bool)?

        /// A closure that runs for each element from upstream; `true` raises the debugger
        /// signal.
        public let receiveOutput: ((Upstream.Output) -> Bool)?

        /// A closure that runs when the upstream completes; `true` raises the debugger
        /// signal.
        public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

        /// Creates a publisher that raises the debugger signal when one of the closures
        /// returns `true`.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        /// Attaches `subscriber` to the upstream publisher through the closures.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(self, downstream: subscriber))
        }
    }
}

extension Publishers.Breakpoint {
    /// Runs the closures; passes the upstream subscription and every event through.
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        private let downstream: Downstream
        // The closures only, not the publisher: holding `upstream` would keep it alive for
        // as long as the upstream holds this subscriber.
        private let receiveSubscription: ((any Subscription) -> Bool)?
        private let receiveOutput: ((Upstream.Output) -> Bool)?
        private let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
        let combineIdentifier = CombineIdentifier()

        init(_ breakpoint: Publishers.Breakpoint<Upstream>, downstream: Downstream) {
            self.downstream = downstream
            receiveSubscription = breakpoint.receiveSubscription
            receiveOutput = breakpoint.receiveOutput
            receiveCompletion = breakpoint.receiveCompletion
        }

        var description: String { "Breakpoint" }

        func receive(subscription: any Subscription) {
            if receiveSubscription?(subscription) == true { stopInDebugger() }
            downstream.receive(subscription: subscription)
        }

        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            if receiveOutput?(input) == true { stopInDebugger() }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            if receiveCompletion?(completion) == true { stopInDebugger() }
            downstream.receive(completion: completion)
        }
    }
}

/// Raises `SIGTRAP`: a debugger stops here; without one, the default action ends the
/// program.
private func stopInDebugger() {
    raise(SIGTRAP)
}

extension Publisher {
    /// Raises a debugger signal when a provided closure needs to stop the process in the
    /// debugger; every closure is optional, and `true` stops.
    ///
    /// ```swift
    /// let c = orders.breakpoint(receiveOutput: { $0.total < 0 }).sink { print($0) }
    /// ```
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil,
        receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal upon receiving a failure; everything else passes through.
    ///
    /// ```swift
    /// let c = downloads.breakpointOnError().sink(receiveCompletion: { print($0) }, receiveValue: { _ in })
    /// ```
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { completion in
            if case .failure = completion { return true }
            return false
        })
    }
}
