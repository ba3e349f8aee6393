import BindingsTestSupport
import Testing
@testable import Bindings

// A model can deinitialise during a delivery of one of its properties: the delivery of a
// new subscriber's initial value does not hold the model, so its callback may release
// the last reference. Everything attached must end then too (SPEC section 6), also what
// subscribed during that delivery.

@Suite("Observation: a model released during a delivery")
struct ObsModelGoneDuringDeliveryTests {
    @Test func everyObserverFinishesAndIsReleased() {
        var person: ObsPerson? = ObsPerson()
        let publisher = person!.$count
        let events = LockedLog<String>()
        var inner: AnyCancellable?
        weak var innerSentinel: Canary?
        weak var outerSentinel: Canary?
        let earlier = publisher.sink(
            receiveCompletion: { _ in events.append("earlier finished") }, receiveValue: { events.append("earlier \($0)") })
        // Made in a function, so that no local of the test keeps the sentinel alive.
        func subscribeOuter() -> AnyCancellable {
            let outerCapture = Canary()
            outerSentinel = outerCapture
            return publisher.sink(
                receiveCompletion: { _ in events.append("outer finished") },
                receiveValue: { value in
                    withExtendedLifetime(outerCapture) { events.append("outer \(value)") }
                    let innerCapture = Canary()
                    innerSentinel = innerCapture
                    inner = publisher.sink(
                        receiveCompletion: { _ in events.append("inner finished") },
                        receiveValue: { value in withExtendedLifetime(innerCapture) { events.append("inner \(value)") } })
                    person = nil   // the last reference: the model goes inside its own delivery
                })
        }
        weak var fastSentinel: Canary?
        func subscribeFast() -> AnyCancellable {
            let capture = Canary()
            fastSentinel = capture
            return publisher.sink { value in withExtendedLifetime(capture) { events.append("fast \(value)") } }
        }
        let fast = subscribeFast()   // `sink(receiveValue:)`: the fast path, no completion
        let outer = subscribeOuter()
        #expect(events.items == [
            "earlier 0", "fast 0", "outer 0", "inner 0", "earlier finished", "outer finished", "inner finished",
        ])
        #expect(fastSentinel == nil, "the fast sink's closure is released")
        #expect(innerSentinel == nil, "the inner sink's closures are released")
        #expect(outerSentinel == nil, "the outer sink's closures are released")
        withExtendedLifetime((earlier, fast, outer, inner)) {}
    }
}
