/// Observes a key path that is not a single `@Observed` property: a computed property
/// (`\.fullName`), a chain through observed objects (`\.address.city`), or a key path
/// with declared or hand-notified dependencies.
///
/// It evaluates the key path while tracking which observable storage the evaluation
/// reads, registers with each of those channels, and after every change evaluates again
/// and re-registers with what was read this time: a computed property that switches
/// dependencies, or a chain whose intermediate object was replaced, follows along. It
/// publishes the results through its own ``channel``.
///
/// Lifetime: the links registered with the dependencies hold it; it ends (and completes
/// its observers) when its root object is gone or its last observer leaves.
final class DerivedObservation<Root: KeyValueObservable, Value>: DependentHandler, ChannelEmptyHandler,
    @unchecked Sendable
{
    // `@unchecked Sendable`: `links`, `last` and `ended` are guarded by `lock`; the rest
    // is immutable.

    private weak var root: Root?
    private let keyPath: KeyPath<Root, Value>
    private let affecting: [AnyKeyPath]
    /// The hand-notified channels of the key path and of those affecting it; fixed.
    private let manualSources: [any DependencySource]
    let channel: PropertyChannel<Value>

    private let lock = Lock()
    private var links: [ObjectIdentifier: any DependencyLink] = [:]
    private var last: Value?
    private var ended = false

    /// Starts observing; `sources` and `value` come from the evaluation the caller just
    /// made while tracking.
    init(root: Root, keyPath: KeyPath<Root, Value>, affecting: [AnyKeyPath], sources: [any DependencySource], value: Value) {
        self.root = root
        self.keyPath = keyPath
        self.affecting = affecting
        channel = PropertyChannel<Value>(key: nil, ownerID: nil, read: { [weak root] in root?[keyPath: keyPath] })
        last = value
        manualSources = ([keyPath] + affecting).map { ManualChangeRegistry.channel(for: root, key: $0) }
        channel.emptyHandler = self
        relink(to: manualSources + sources + Self.affectingSources(root: root, affecting: affecting))
    }

    /// What evaluating the affecting key paths reads.
    private static func affectingSources(root: Root, affecting: [AnyKeyPath]) -> [any DependencySource] {
        affecting.flatMap { key in DependencyTracking.track { root[keyPath: key] }.1 }
    }

    /// Registers with the new sources and leaves the ones no longer read.
    private func relink(to sources: [any DependencySource]) {
        lock.lock()
        if ended {
            lock.unlock()
            return
        }
        var keep: [ObjectIdentifier: any DependencyLink] = [:]
        var toAttach: [any DependencySource] = []
        for source in sources {
            let id = ObjectIdentifier(source)
            if keep[id] != nil { continue }
            if let link = links.removeValue(forKey: id) {
                keep[id] = link
            } else {
                toAttach.append(source)
            }
        }
        let toDetach = Array(links.values)
        links = keep
        lock.unlock()

        for link in toDetach { link.detach() }
        var attached: [(ObjectIdentifier, any DependencyLink)] = []
        for source in toAttach {
            attached.append((ObjectIdentifier(source), source.attach(self)))
        }
        lock.lock()
        let lateEnd = ended
        if !lateEnd {
            for (id, link) in attached { links[id] = link }
        }
        lock.unlock()
        if lateEnd { for (_, link) in attached { link.detach() } }
    }

    // MARK: DependentHandler

    func dependencyWillChange() {
        guard channel.wantsPrior, let root else { return }
        channel.sendPrior(old: root[keyPath: keyPath])
    }

    func dependencyDidChange() {
        guard let root else {
            end()
            return
        }
        let (value, sources) = DependencyTracking.track { root[keyPath: keyPath] }
        relink(to: manualSources + sources + Self.affectingSources(root: root, affecting: affecting))
        let old: Value? = lock.withLock {
            let old = last
            last = value
            return old
        }
        channel.sendChange(old: old, new: value)
    }

    func dependencyEnded() {
        if root == nil { end() }
    }

    func channelBecameEmpty() { end() }

    /// Leaves every dependency and completes the observers.
    private func end() {
        let links: [any DependencyLink] = lock.withLock {
            guard !ended else { return [] }
            ended = true
            let links = Array(self.links.values)
            self.links = [:]
            return links
        }
        for link in links { link.detach() }
        channel.close()
    }
}
