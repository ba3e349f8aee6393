import FoundationBindings
import Testing

// This file imports FoundationBindings alone: it compiles only while FoundationBindings
// re-exports Bindings, as the README's Foundation examples rely on.

private final class FBReexportModel: KeyValueObservable {
    @Observed var count = 0
}

@Suite("FoundationBindings: re-exports Bindings")
struct FBReexportTests {
    @Test func bindingsIsUsableThroughFoundationBindingsAlone() {
        let model = FBReexportModel()
        var received: [Int] = []
        let subscription: AnyCancellable = model.$count.sink { received.append($0) }
        model.count = 1
        #expect(received == [0, 1])
        withExtendedLifetime(subscription) {}
    }
}
