// Chains of `@Observed` properties (`\.child.value`): the link with the last property
// sends its changes on with no evaluation (see `DerivedObservation`).

/// The link that a chain's last property gets (see ``DependentObserver/forwardTarget``).
struct ForwardingTail {
    let source: any DependencySource
    /// The versions of the chain's earlier properties when the chain was evaluated.
    let versions: [UInt]
    /// Registers the forwarding link.
    let attach: (any DependentHandler) -> any DependencyLink
}

extension DerivedObservation {
    /// The last of `tracked` (what an evaluation of the key path read), if the key path
    /// is exactly a chain of `@Observed` properties from the root (`\.child.value`:
    /// `child` of the root, then `value` of that child), so that its value is the value
    /// of that last property and a change of it can be sent on as it is.
    ///
    /// Checked by comparing the key path with the key paths of the properties read,
    /// appended in order: equal key paths read the same properties, so the evaluation
    /// reads exactly those, and the last one's value is the key path's. Not for key paths
    /// with affecting key paths (their changes need an evaluation), and not when the last
    /// property's value type is not exactly `Value`.
    func forwardableTail(of tracked: [any DependencySource], root: Root) -> ForwardingTail? {
        // Cheap checks first: the first property is the root's, the others (in a chain
        // without cycles) another object's, and the last one's type is right.
        let rootID = ObjectIdentifier(root)
        guard affecting.isEmpty, tracked.count >= 2, tracked[0].ownerID == rootID,
              tracked.dropFirst().allSatisfy({ $0.ownerID != rootID }),
              ObjectIdentifier(type(of: tracked[tracked.count - 1])) == ObjectIdentifier(PropertyChannel<Value>.self)
        else { return nil }
        var chain: AnyKeyPath?
        for source in tracked {
            guard source.isStoredProperty, let key = source.sourceKey else { return nil }
            guard let sofar = chain else {
                chain = key
                continue
            }
            guard let appended = sofar.appending(path: key) else { return nil }
            chain = appended
        }
        guard chain == keyPath, let channel = lock.withLock({ channel }) else { return nil }
        let tail = unsafeDowncast(tracked[tracked.count - 1], to: PropertyChannel<Value>.self)
        let lastValue = lastValue
        // Until the links follow a change of an earlier property (a replaced `child`),
        // the last property's channel may be another object's than the chain's: its
        // changes are not the chain's then. The versions tell (see `forward`).
        let earlier = tracked.dropLast().map { $0.changeCount }
        let versions = earlier.map { $0.version }
        return ForwardingTail(source: tail, versions: versions) { dependent in
            tail.attachForwarding(
                dependent, to: channel, lastValue: lastValue, guards: earlier, versions: versions)
        }
    }
}
