import BindingsTestSupport
import Testing
@testable import Bindings

// A property's channel reads the current value itself for an observer that brings none,
// or whose value is stale: a projection (`$x`) read before the last set. It reads through
// the projection (a channel the projection made), or through the property's getter (a
// channel a tracked read made), or, for an instance of a subclass, whose getter may be
// overridden, from the storage.

/// A model whose class a subclass extends.
class ChannelReadBase: KeyValueObservable {
    @Observed var x = 1
}

/// Overrides `x`'s getter: what it returns is not what is stored.
final class ChannelReadOverride: ChannelReadBase {
    override var x: Int {
        get { super.x * 10 }
        set { super.x = newValue }
    }
}

final class ChannelReadModel: KeyValueObservable {
    @Observed var x = 1
    @Observed var y = 0
    var sum: Int { x + y }
}

@Suite("Observation: what a channel reads for an observer that brings no current value")
struct ObsChannelReadTests {
    /// Takes `x`'s projection, sets `x` to 5 (the projection is then stale), subscribes
    /// to the projection, sets 6: what the subscription received.
    private func staleProjectionReceives(_ model: ChannelReadModel) -> [Int] {
        let projection = model.$x
        model.x = 5
        var received: [Int] = []
        let c = projection.sink { received.append($0) }
        model.x = 6
        withExtendedLifetime(c) {}
        return received
    }

    @Test func aStaleProjectionOfAChannelTheProjectionMadeGetsTheCurrentValue() {
        let model = ChannelReadModel()
        #expect(staleProjectionReceives(model) == [5, 6])
    }

    @Test func aStaleProjectionOfAChannelATrackedReadMadeGetsTheCurrentValue() {
        let model = ChannelReadModel()
        let sums = model.publisher(for: \.sum).sink { _ in }   // a tracked read makes x's channel
        #expect(staleProjectionReceives(model) == [5, 6])
        withExtendedLifetime(sums) {}
    }

    /// The channel reads what sets deliver, the stored value, not what an overriding
    /// getter returns (and runs no subclass code under its lock).
    @Test func aSubclassInstancesChannelReadsTheStoredValue() {
        let model = ChannelReadOverride()
        var seen: [Int] = []
        // A tracked read, through the override, makes the channel.
        let c1 = model.publisher(for: \.x).sink { seen.append($0) }
        let projection = model.$x
        model.x = 2
        var received: [Int] = []
        let c2 = projection.sink { received.append($0) }
        model.x = 3
        #expect(received == [2, 3])
        #expect(seen == [10, 20, 30])
        withExtendedLifetime((c1, c2)) {}
    }

    /// The first tracked read finds the property's name, for messages, also when a
    /// superclass declares it.
    @Test func aPropertyDeclaredByASuperclassIsNamed() {
        let model = ChannelReadOverride()
        let c = model.publisher(for: \.x).sink { _ in }
        #expect(model.$x.channel.propertyName == "ChannelReadOverride.x")
        withExtendedLifetime(c) {}
    }

    /// The name is found once per class and key path, then remembered: each instance,
    /// of the class or of a subclass, is named after its own class.
    @Test func eachInstanceIsNamedAfterItsClass() {
        let models = [ChannelReadBase(), ChannelReadOverride(), ChannelReadBase(), ChannelReadOverride()]
        let subscriptions = models.map { $0.publisher(for: \.x).sink { _ in } }
        #expect(models.map { $0.$x.channel.propertyName } == [
            "ChannelReadBase.x", "ChannelReadOverride.x", "ChannelReadBase.x", "ChannelReadOverride.x",
        ])
        withExtendedLifetime(subscriptions) {}
    }
}
