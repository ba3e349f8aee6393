import Bindings
import OpenCombine

// The main-actor rows: a `sink` (one closure or two), a change handler, a listener and a
// `<~` made in main-actor code (a
// Swift 6 `main.swift`, a `@MainActor` type), where Bindings delivers on the main actor
// only (at once when the set is made there), and OpenCombine calls the closure where the
// value is sent. The sets are made on the main actor too, so every delivery is at once.
//
// Measured twice (see main.swift): on the main thread, as a synchronous `main.swift`
// runs, and in a block of the main queue on a worker thread, as an `async` main (or a
// program parked in `dispatchMain()`) runs its main actor.

/// An owner whose `BindingOwner` conformance is isolated to the main actor.
@MainActor final class BindingsMainActorLabel {
    var number = 0
    var subscriptions = Set<Bindings.AnyCancellable>()
}

extension BindingsMainActorLabel: @MainActor BindingOwner {}

/// OpenCombine's owner of the same shape.
@MainActor final class OpenCombineMainActorLabel {
    var number = 0
}

@MainActor
enum MainActorCases {
    /// The comparisons, made afresh (each `where` measures its own models): `$x.sink`, a
    /// change handler, and `<~` into a main-actor owner, against `@Published` and
    /// `assign(to:on:)`.
    static func comparisons(_ counter: Counter) -> [Comparison] {
        [
            Comparison("main_actor_sink") { [
                Side("Bindings", bindingsSink(counter)),
                Side("OpenCombine", openCombineSink(counter)),
            ] },
            Comparison("main_actor_observe") { [Side("Bindings", bindingsObserve(counter))] },
            Comparison("main_actor_listener") { [Side("Bindings", bindingsListener(counter))] },
            Comparison("main_actor_sink_completion") { [
                Side("Bindings", bindingsSinkWithCompletion(counter)),
                Side("OpenCombine", openCombineSinkWithCompletion(counter)),
            ] },
            Comparison("main_actor_bind") { [
                Side("Bindings", bindingsBind(counter)),
                Side("OpenCombine", openCombineAssign(counter)),
            ] },
        ]
    }

    static func bindingsSink(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { bindingsSet(model, count) } } }
    }

    static func bindingsObserve(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let token = model.observe(\.value, options: [.new]) { _, change in counter.total &+= change.newValue! }
        return { count in withExtendedLifetime(token) { timed { bindingsSet(model, count) } } }
    }

    static func bindingsListener(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let label = BindingsMainActorLabel()
        model.$value.bind(label) { label, value in label.number = value }
        return { count in
            let elapsed = timed { bindingsSet(model, count) }
            counter.total &+= label.number
            return elapsed
        }
    }

    static func bindingsSinkWithCompletion(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let subscription = model.publisher(for: \.value).sink(receiveCompletion: { _ in }) { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { bindingsSet(model, count) } } }
    }

    static func openCombineSinkWithCompletion(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let subscription = model.$value.sink(receiveCompletion: { _ in }) { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { openCombineSet(model, count) } } }
    }

    static func bindingsBind(_ counter: Counter) -> Run {
        let model = BindingsModel()
        let label = BindingsMainActorLabel()
        label.reactive.number <~ model.reactive.value
        return { count in
            let elapsed = timed { bindingsSet(model, count) }
            counter.total &+= label.number
            return elapsed
        }
    }

    static func openCombineSink(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let subscription = model.$value.sink { counter.total &+= $0 }
        return { count in withExtendedLifetime(subscription) { timed { openCombineSet(model, count) } } }
    }

    static func openCombineAssign(_ counter: Counter) -> Run {
        let model = OpenCombineModel()
        let label = OpenCombineMainActorLabel()
        let subscription = model.$value.assign(to: \.number, on: label)
        return { count in
            let elapsed = withExtendedLifetime(subscription) { timed { openCombineSet(model, count) } }
            counter.total &+= label.number
            return elapsed
        }
    }
}
