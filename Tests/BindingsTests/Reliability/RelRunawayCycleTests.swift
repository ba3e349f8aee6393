import BindingsTestSupport
import Testing
@testable import Bindings

// A cycle of bindings or observers that never settles (every set notifies, equal values
// included, as KVO) stops the program with a message that names the property and the
// fix, as a runaway `autorun` does, rather than spinning forever at full speed; a chain
// of sets from inside callbacks that settles, however long, runs to its end.

/// A model and owner whose text can be bound to itself or to another's.
final class RelCycleField: KeyValueObservable, BindingOwner {
    @Observed var text = ""
    var subscriptions = Set<AnyCancellable>()
}

@Suite("Reliability: a cycle of bindings that never settles stops the program")
struct RelRunawayCycleTests {
    static let runaway = "was changed again from inside its own delivery 100000 times in a row"

    @Test func aPropertyBoundToItselfStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let field = RelCycleField()
            field.reactive.text <~ field.reactive.text
        }
        let message = standardError(of: result)
        #expect(message.contains(Self.runaway))
        #expect(message.contains("RelCycleField.text"))
        #expect(message.contains("Break the cycle"))
    }

    @Test func twoPropertiesBoundToEachOtherOneWayStop() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = RelCycleField()
            let b = RelCycleField()
            a.reactive.text <~ b.reactive.text
            b.reactive.text <~ a.reactive.text
            a.text = "x"
        }
        let message = standardError(of: result)
        #expect(message.contains(Self.runaway))
        #expect(message.contains("RelCycleField.text"))
    }

    @Test func aRingOfTwoWayBindingsStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let a = RelCycleField()
            let b = RelCycleField()
            let c = RelCycleField()
            a.reactive.text <~> b.reactive.text
            b.reactive.text <~> c.reactive.text
            c.reactive.text <~> a.reactive.text
            a.text = "x"
        }
        #expect(standardError(of: result).contains(Self.runaway))
    }

    /// An observer that counts its property down, one set per delivery, each from inside
    /// the last one's callback: 90,000 re-entrant sets that settle, delivered in order.
    @Test func aLongChainOfSetsThatSettlesRunsToItsEnd() {
        let field = RelCycleField()
        var seen = 0
        var last = ""
        let c = field.$text.sink { text in
            seen += 1
            last = text
            if let n = Int(text), n > 0 { field.text = String(n - 1) }
        }
        field.text = "90000"
        #expect(seen == 90_002, "the initial value, then every set")
        #expect(last == "0")
        withExtendedLifetime(c) {}
    }
}
