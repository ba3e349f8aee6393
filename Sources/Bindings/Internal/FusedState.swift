/// The state of one fused `sink` of a stateful operator (`removeDuplicates`'s last value,
/// `scan`'s running result), captured by the fused closure.
///
/// `@exclusivity(unchecked)`, and no lock: only that closure touches `value`, and a fused
/// closure is registered on one channel, which calls it one value at a time (the
/// channel's delivery orders each call after the one before, on whichever thread).
@usableFromInline
final class FusedState<Value> {
    @exclusivity(unchecked) @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) { self.value = value }
}
