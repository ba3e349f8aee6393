extension Publishers {
    /// A publisher that stops the program when its upstream fails, and otherwise
    /// republishes all it receives, as in Combine.
    ///
    /// ```swift
    /// let c = settings.assertNoFailure("settings").sink { apply($0) }
    /// ```
    ///
    /// Its failure type is `Never`, so a publisher that cannot fail in practice can be
    /// used where one that cannot fail is needed (a binding, `sink(receiveValue:)`). Like
    /// `fatalError`, it stops the program in debug and release builds alike, naming the
    /// prefix, the error, and the file and line where `assertNoFailure` was written. It
    /// passes the upstream subscription to its subscriber.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        /// The kind of values published: the upstream's.
        public typealias Output = Upstream.Output
        /// It cannot fail: a failure stops the program.
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The string used at the beginning of the fatal error message.
        public let prefix: String

        /// The file name used in the error message.
        public let file: StaticString

        /// The line number used in the error message.
        public let line: UInt

        /// Creates a publisher that stops the program with a message made of `prefix`
        /// and the error, at `file` and `line`, when `upstream` fails.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        /// Attaches `subscriber` to the upstream publisher.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publishers.AssertNoFailure {
    /// Passes everything through, and stops the program at a failure.
    @usableFromInline
    struct Inner<Downstream: Subscriber>: Subscriber, CombineReflectable
    where Downstream.Input == Upstream.Output, Downstream.Failure == Never {
        @usableFromInline let downstream: Downstream
        @usableFromInline let prefix: String
        @usableFromInline let file: StaticString
        @usableFromInline let line: UInt
        @usableFromInline let combineIdentifier = CombineIdentifier()

        @inlinable
        init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
            self.downstream = downstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        @usableFromInline var description: String { "AssertNoFailure" }

        /// The message's parts, as Combine shows them.
        @usableFromInline var customMirror: Mirror {
            Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
        }

        @inlinable
        func receive(subscription: any Subscription) {
            downstream.receive(subscription: subscription)
        }

        @inlinable
        func receive(_ input: Upstream.Output) -> Subscribers.Demand {
            downstream.receive(input)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Upstream.Failure>) {
            switch completion {
            case .finished:
                downstream.receive(completion: .finished)
            case .failure(let error):
                Self.failed(error, prefix: prefix, file: file, line: line)
            }
        }

        /// Stops the program. `fatalError`, not `precondition`: the message must survive
        /// -O builds.
        @usableFromInline
        static func failed(_ error: Upstream.Failure, prefix: String, file: StaticString, line: UInt) -> Never {
            fatalError("\(prefix.isEmpty ? "" : prefix + ": ")\(error)", file: file, line: line)
        }
    }
}

extension Publisher {
    /// Stops the program when the upstream publisher fails, and otherwise republishes all
    /// received input; the result cannot fail.
    ///
    /// ```swift
    /// let c = settings.assertNoFailure("settings").sink { apply($0) }
    /// // a failure stops the program: "settings: <the error>", with this file and line
    /// ```
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}
