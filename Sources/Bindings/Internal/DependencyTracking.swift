import CBindingsThreadLocal

/// Finds out which observable storage a piece of code reads.
///
/// The getter of every `@Observed` property checks ``currentSession`` (one load of the
/// thread's state) and, only when its thread is tracking, reports itself through
/// ``record(_:into:_:)``.
///
/// A derived observation re-evaluates after every change, and usually reads exactly
/// what it read last time: it passes that list in (`expecting:`), each read is matched
/// against it in order, and only a read that departs from it makes a new list. So an
/// evaluation whose dependencies did not change allocates nothing (SPEC section 8).
@usableFromInline
enum DependencyTracking {
    /// Whether the current thread is tracking: one load of its thread-local state, so that
    /// a read on a thread that does not track stays cheap.
    @inlinable
    static var isActive: Bool { bindings_thread_session() != nil }

    /// One tracking session, on the stack of the thread that tracks (the thread's
    /// thread-local state points at it while `body` runs), so that tracking allocates
    /// nothing itself.
    ///
    /// `@usableFromInline`, with the fields of the common case: a read that is the next
    /// one expected is matched in the getter, inlined (``record(_:into:_:)``).
    @usableFromInline
    struct Recorder {
        /// What the caller expects to be read, in order: the caller's array, borrowed for
        /// the session (valid inside its `withUnsafeBufferPointer`, which the session
        /// never outlives), so that a session retains nothing.
        @usableFromInline let expected: UnsafeBufferPointer<any DependencySource>
        /// The session's thread's context, which keeps a ``Departure`` between sessions
        /// (unretained: the thread-local slot holds it for the thread's life).
        @usableFromInline let context: Unmanaged<BatchContext>
        /// How many of `expected` were read, in order, so far.
        @usableFromInline var matched = 0
        /// What was read, once the reads departed from `expected`; `nil` while they
        /// follow it. One reference for all of it, so that a session that read what it
        /// expected ends with one release of `nil`, not one per field (or, for a struct of
        /// them, a call through the recorder's value witnesses).
        @usableFromInline var departure: Departure?
        /// The model whose set this thread is delivering (see
        /// ``DependentHandler/dependencyDidChange(_:setOwner:)``): nobody else creates its
        /// properties' channels meanwhile, so a tracked read of it looks its channel up
        /// without the creation lock, as the set itself does. `nil`: every read locks.
        @usableFromInline var trustedOwner: ObjectIdentifier?
        /// Whether to keep ``Departure/versions``: only
        /// ``trackChanges(expecting:in:_:)`` asks (a dictionary per evaluation measured a
        /// tenth of making a binding).
        @usableFromInline var keepsVersions = false

        /// The reads of a session that departed from what it expected, once a read
        /// departs: a dependency switched, or the first evaluation of a key path (which
        /// expects nothing). Kept by the thread's context between sessions, so that a
        /// departure allocates no object of its own (a subscription to a computed key
        /// path departs in each of its evaluations: one allocation each measured about
        /// 100 ns of subscribe + cancel). Touched only by the session's thread.
        ///
        /// `@exclusivity(unchecked)` on its fields: one thread touches them, and no access
        /// spans a call that could touch them again; checked, each access was a run-time
        /// exclusivity check, about 100 ns of a subscription to a computed key path.
        @usableFromInline
        final class Departure {
            /// Every source read so far, each once, in order.
            @exclusivity(unchecked) var sources: [any DependencySource] = []
            /// The identifiers in `sources`, once it grows past a linear scan's worth.
            @exclusivity(unchecked) var seen: Set<ObjectIdentifier>?
            /// For each source read that is not in `expected`, its count of changes when
            /// it was read (see ``trackChanges(expecting:in:trusting:_:)``).
            @exclusivity(unchecked) var versions: [ObjectIdentifier: UInt]?

            /// The context's spare, or a new one, starting from `sources`, with room for a
            /// few more: a list grown one read at a time from empty was allocated twice
            /// for two reads (a subscription's look-up of a computed key path).
            static func make(
                in context: Unmanaged<BatchContext>, from sources: UnsafeBufferPointer<any DependencySource>.SubSequence
            ) -> Departure {
                let departure = context._withUnsafeGuaranteedRef { $0.spareDeparture.take() } ?? Departure()
                departure.sources.reserveCapacity(sources.count + 4)
                departure.sources.append(contentsOf: sources)
                return departure
            }

            /// Empties this departure and gives it to `context` to keep, unless it keeps
            /// one already (a nested session's).
            func recycle(into context: Unmanaged<BatchContext>) {
                sources = []
                seen = nil
                versions = nil
                context._withUnsafeGuaranteedRef { if $0.spareDeparture == nil { $0.spareDeparture = self } }
            }

            /// Adds the source that `id` names, unless it was read already.
            func add(_ id: ObjectIdentifier, _ source: () -> any DependencySource, keepingVersion: Bool) {
                if sources.count < 16 {
                    if sources.contains(where: { ObjectIdentifier($0) == id }) { return }
                } else {
                    if seen == nil { seen = Set(sources.lazy.map { ObjectIdentifier($0) }) }
                    guard seen!.insert(id).inserted else { return }
                }
                let made = source()
                if keepingVersion {
                    if versions == nil { versions = [:] }
                    versions![id] = made.changeCount.version
                }
                sources.append(made)
            }
        }

        /// Records the source that `id` names; `source` makes the reference only if it
        /// must be kept (a read that departs from `expected`), so that the common case
        /// retains nothing.
        @usableFromInline
        mutating func record(_ id: ObjectIdentifier, _ source: () -> any DependencySource) {
            if departure == nil {
                if matched < expected.count, ObjectIdentifier(expected[matched]) == id {
                    matched += 1
                    return
                }
                // Read again: nothing new. (A linear scan: dependency lists are short.)
                for index in 0..<matched where ObjectIdentifier(expected[index]) == id { return }
                departure = Departure.make(in: context, from: expected[0..<matched])
            }
            departure!.add(id, source, keepingVersion: keepsVersions)
        }

        /// Starts a session expecting `expected`, on this thread's context. Inlined, as
        /// ``finish()``'s common case is, into ``trackInlined(expecting:trusting:_:)``.
        @inlinable
        init(expected: UnsafeBufferPointer<any DependencySource>, trusting trustedOwner: ObjectIdentifier?) {
            self.init(expected: expected, context: BatchContext.ofThisThread)
            self.trustedOwner = trustedOwner
        }

        @inlinable
        init(expected: UnsafeBufferPointer<any DependencySource>, context: Unmanaged<BatchContext>) {
            self.expected = expected
            self.context = context
        }

        /// Ends the session: returns ``result``, and gives the departure, if any, back to
        /// the context.
        @inlinable
        mutating func finish() -> [any DependencySource]? {
            // The common case: exactly what was expected was read.
            if departure == nil, matched == expected.count { return nil }
            return finishDeparted()
        }

        /// ``finish()`` after the reads departed from `expected`, or stopped short of it.
        @usableFromInline
        mutating func finishDeparted() -> [any DependencySource]? {
            let result = self.result
            departure.take()?.recycle(into: context)
            return result
        }

        /// `nil` if exactly `expected` was read, otherwise what was.
        var result: [any DependencySource]? {
            if let departure { return departure.sources }
            return matched == expected.count ? nil : Array(expected[0..<matched])
        }
    }

    /// Runs `body` and returns what it read (each source once, in order), or `nil` if it
    /// read exactly `expected`. Nests: an inner tracking's reads are not reported to the
    /// outer one. Not generic, so that a caller in unspecialized generic code pays no
    /// metadata look-up for it. `trustedOwner`: see ``Recorder/trustedOwner``.
    @usableFromInline
    static func track(
        expecting expected: [any DependencySource], trusting trustedOwner: ObjectIdentifier? = nil, _ body: () -> Void
    ) -> [any DependencySource]? {
        trackInlined(expecting: expected, trusting: trustedOwner, body)
    }

    /// ``track(expecting:trusting:_:)``, always inlined, with `body` inlined into it: for
    /// a derived observation's change, whose `body` applies the key path literal that the
    /// optimizer folds into property reads. Passed to the function above, `body` was a
    /// closure that captured the key path, which the change then made at each run for
    /// nothing (a call to `swift_getKeyPath`, a retain and a release).
    @inlinable @inline(__always)
    static func trackInlined(
        expecting expected: [any DependencySource], trusting trustedOwner: ObjectIdentifier?, _ body: () -> Void
    ) -> [any DependencySource]? {
        expected.withUnsafeBufferPointer { expected in
            var recorder = Recorder(expected: expected, trusting: trustedOwner)
            session(&recorder, body)
            return recorder.finish()
        }
    }

    /// ``track(expecting:_:)``, also keeping, for each source read that is not in
    /// `expected`, its count of changes when it was read (see ``TrackedReads``); `nil`
    /// if exactly `expected` was read (so that the common case has nothing to release).
    /// `context` is this thread's (``BatchContext/ofThisThread``), which the caller has.
    static func trackChanges(
        expecting expected: [any DependencySource], in context: Unmanaged<BatchContext>,
        trusting trustedOwner: ObjectIdentifier?, _ body: () -> Void
    ) -> TrackedReads? {
        expected.withUnsafeBufferPointer { expected in
            var recorder = Recorder(expected: expected, context: context)
            recorder.trustedOwner = trustedOwner
            recorder.keepsVersions = true
            session(&recorder, body)
            // Versions are kept only for reads that departed from `expected`.
            guard let sources = recorder.result else { return nil }
            let versions = recorder.departure?.versions
            recorder.departure.take()?.recycle(into: context)
            return TrackedReads(sources: sources, versions: versions)
        }
    }

    /// Runs `body` with `recorder` as this thread's session: the thread-local state
    /// points at it only while `body` runs (then at the session it nests in, if any), so
    /// the pointer never outlives the `withUnsafeMutablePointer` that made it. Always
    /// inlined, so that `body` is too (see ``trackInlined(expecting:trusting:_:)``).
    @inlinable @inline(__always)
    static func session(_ recorder: inout Recorder, _ body: () -> Void) {
        let previous = bindings_thread_session()
        withUnsafeMutablePointer(to: &recorder) { recorder in
            bindings_set_thread_session(UnsafeMutableRawPointer(recorder))
            body()
            bindings_set_thread_session(previous)
        }
    }

    /// Runs `body` with this thread's tracking paused: what it reads is not recorded by
    /// the session under way, if any, which is back when `body` returns.
    static func untracked<T>(_ body: () -> T) -> T {
        let previous = bindings_thread_session()
        bindings_set_thread_session(nil)
        defer { bindings_set_thread_session(previous) }
        return body()
    }

    /// What ``trackChanges(expecting:in:_:)`` found when the reads departed from what
    /// was expected: a plain value, so that a run allocates nothing it need not.
    struct TrackedReads {
        /// What was read, each source once, in order.
        let sources: [any DependencySource]
        /// For each source read that was not expected, its count of changes when read;
        /// `nil` when there is none.
        let versions: [ObjectIdentifier: UInt]?

        /// Whether a source read for the first time changed after it was read. Call it
        /// once links with the sources exist: a change made before that reached nobody.
        func changedSinceRead() -> Bool {
            guard let versions else { return false }
            return sources.contains { source in
                versions[ObjectIdentifier(source)].map { $0 != source.changeCount.version } ?? false
            }
        }
    }

    /// Runs `body`, returning its result and every source it read (each once, in order).
    static func track<T>(_ body: () -> T) -> (T, [any DependencySource]) {
        var result: T?
        let sources = track(expecting: []) { result = body() }
        return (result!, sources ?? [])
    }

    /// The tracking session of the current thread, or `nil` if it is not tracking: one
    /// load of the thread's state, so that a read on a thread that does not track pays
    /// nothing more (and creates no channel) when another thread tracks. Valid until the
    /// read that asked returns: the session lives on the stack of the tracking function
    /// running the read (``track(expecting:trusting:_:)``, ``trackInlined(expecting:trusting:_:)``
    /// or ``trackChanges(expecting:in:trusting:_:)``).
    @inlinable
    static var currentSession: UnsafeMutableRawPointer? { bindings_thread_session() }

    /// Whether `session` (the ``currentSession`` of this read) trusts reads of `owner` to
    /// look channels up without the creation lock (see ``Recorder/trustedOwner``).
    @inlinable @inline(__always)
    static func trusts(_ owner: ObjectIdentifier, session: UnsafeMutableRawPointer) -> Bool {
        session.assumingMemoryBound(to: Recorder.self).pointee.trustedOwner == owner
    }

    /// Reports to `session` (the ``currentSession`` of this read) that the current thread
    /// read the source that `id` names; `source` gives the reference, only if kept.
    ///
    /// The common case, the next read expected, is matched here, inlined into the getter;
    /// the rest is out of line.
    @inlinable
    static func record(_ id: ObjectIdentifier, into session: UnsafeMutableRawPointer, _ source: () -> any DependencySource) {
        let recorder = session.assumingMemoryBound(to: Recorder.self)
        let matched = recorder.pointee.matched
        if recorder.pointee.departure == nil, matched < recorder.pointee.expected.count,
           ObjectIdentifier(recorder.pointee.expected[matched]) == id {
            recorder.pointee.matched = matched &+ 1
            return
        }
        recorder.pointee.record(id, source)
    }
}
