/// A publisher that replays a recording of values and a completion to each subscriber,
/// as in Combine.
///
/// ```swift
/// let replay = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
/// let c = replay.sink { print($0) }   // 1, 2, 3
///
/// let recorded = Record<String, Never> { recording in
///     recording.receive("a")
///     recording.receive(completion: .finished)
/// }
/// ```
public struct Record<Output, Failure: Error>: Publisher {
    /// The values and the completion that each subscriber receives.
    public let recording: Recording

    /// Creates a record of what `record` puts in the recording it is given.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record of `recording`.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record of `output`, then `completion`.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        recording = Recording(output: output, completion: completion)
    }

    /// Replays the recording to `subscriber`, as its demand allows; a recording of no
    /// values completes at once, as in Combine.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        if recording.output.isEmpty {
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: recording.completion)
            return
        }
        subscriber.receive(subscription: RecordSubscription(recording: recording, downstream: subscriber))
    }

    /// A sequence of values and a completion, as a subscriber would receive them.
    public struct Recording {
        /// The kind of values recorded.
        public typealias Input = Output

        /// The values, in order.
        public private(set) var output: [Output]
        /// The completion: `.finished` until one is received.
        public private(set) var completion: Subscribers.Completion<Failure>
        private var completed: Bool

        /// An empty recording, still open.
        public init() {
            output = []
            completion = .finished
            completed = false
        }

        /// A complete recording of `output`, then `completion`.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            completed = true
        }

        /// Records a value. Recording one after the completion stops the program.
        public mutating func receive(_ input: Output) {
            // `fatalError`, not `precondition`, here and below: a release build prints its message.
            if completed { fatalError("Bindings: a Record.Recording received a value after its completion; record the values first") }
            output.append(input)
        }

        /// Records the completion. Recording a second one stops the program.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            if completed { fatalError("Bindings: a Record.Recording received a second completion; record one completion, last") }
            self.completion = completion
            completed = true
        }
    }
}

extension Record: Sendable where Output: Sendable {}
extension Record.Recording: Sendable where Output: Sendable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey { case output, completion }

    /// Decodes a complete recording.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    /// Encodes the values and the completion.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }
}

extension Record: Codable where Output: Codable, Failure: Codable {
    /// Decodes a record from its recording.
    public init(from decoder: any Decoder) throws {
        self.init(recording: try Recording(from: decoder))
    }

    /// Encodes the recording.
    public func encode(to encoder: any Encoder) throws {
        try recording.encode(to: encoder)
    }
}

/// Delivers a recording's values as demand allows, then, right after the last one, its
/// completion.
final class RecordSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private let lock = Lock()
    // Guarded by `lock`; only the emitter reads `output` and `completion`.
    private var downstream: Downstream?
    private var demand = Subscribers.Demand.none
    private var emitting = false
    private var index = 0
    private let output: [Downstream.Input]
    private let completion: Subscribers.Completion<Downstream.Failure>

    init<Output, Failure>(recording: Record<Output, Failure>.Recording, downstream: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        output = recording.output
        completion = recording.completion
        self.downstream = downstream
    }

    var description: String { "Record" }

    func request(_ demand: Subscribers.Demand) {
        demand.assertNonZero()
        lock.lock()
        guard downstream != nil else {
            lock.unlock()
            return
        }
        self.demand += demand
        guard !emitting else {
            lock.unlock()
            return
        }
        emitting = true
        lock.unlock()
        emit()
    }

    /// Delivers while there is demand; whoever set `emitting` runs it, alone.
    private func emit() {
        var more = Subscribers.Demand.none
        while true {
            lock.lock()
            demand += more
            guard let downstream else {
                emitting = false
                lock.unlock()
                return
            }
            if index == output.count {
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            guard demand > .none else {
                emitting = false
                lock.unlock()
                return
            }
            demand -= 1
            let value = output[index]
            index += 1
            lock.unlock()
            more = downstream.receive(value)
        }
    }

    func cancel() {
        let downstream = lock.withLock { self.downstream.take() }
        withExtendedLifetime(downstream) {}
    }
}
