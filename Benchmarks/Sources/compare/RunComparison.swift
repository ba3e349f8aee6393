#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMallocCounter

/// The report: the tables for people, the JSON object for scripts. The main-actor table
/// is added last (``addMainActorTable(onMainThread:onWorker:rounds:)``): its second half is
/// measured after the main thread has parked (see main.swift).
struct ComparisonReport {
    var heading: String
    var tables: [String]
    var notes: String
    var json: JSONReport

    var text: String { ([heading] + tables + [notes]).joined(separator: "\n\n") }
}

/// Runs every benchmark and builds the report, but for the main-actor table, whose
/// comparisons measured on the main thread it returns too.
/// `only`, a comparison's key (or "memory"), runs just that one: for profiling.
@MainActor
func runComparison(rounds: Int, only: String?, multiThreaded: Bool = true) -> (ComparisonReport, mainActor: [Comparison]) {
    let counter = Counter()
    let target = batchNanoseconds
    let batches = batchesPerRound

    progress("setting up (load average: \(firstLine(ofFile: "/proc/loadavg") ?? "unknown"))")

    // Timed comparisons, Bindings first, OpenCombine second.
    let setNotify = Comparison("set_notify") { [
        Side("Bindings", BindingsCases.setNotify(counter, subscribers: 1)),
        Side("OpenCombine", OpenCombineCases.setNotify(counter, subscribers: 1)),
    ] }
    let setUnobserved = Comparison("set_unobserved") { [
        Side("Bindings", BindingsCases.setUnobserved()),
        Side("OpenCombine", OpenCombineCases.setUnobserved()),
    ] }
    let setAfterLeft = Comparison("set_after_observers_left") { [
        Side("Bindings", BindingsCases.setAfterObserversLeft(counter)),
        Side("OpenCombine", OpenCombineCases.setAfterObserversLeft(counter)),
    ] }
    let perSubscriber = Comparison("per_subscriber") { [
        Side("Bindings", unitsPerOperation: 100, BindingsCases.setNotify(counter, subscribers: 100)),
        Side("OpenCombine", unitsPerOperation: 100, OpenCombineCases.setNotify(counter, subscribers: 100)),
    ] }
    let subscribeCancel = Comparison("subscribe_cancel") { [
        Side("Bindings", BindingsCases.subscribeCancel(counter)),
        Side("OpenCombine", OpenCombineCases.subscribeCancel(counter)),
    ] }
    let nested = Comparison("nested") { [
        Side("Bindings", BindingsCases.nested(counter)),
        Side("OpenCombine", OpenCombineCases.nested(counter)),
    ] }
    let subject = Comparison("subject") { [
        Side("Bindings", BindingsCases.currentValueSubject(counter)),
        Side("OpenCombine", OpenCombineCases.currentValueSubject(counter)),
    ] }
    // Bindings only, and the floors.
    let computed = Comparison("computed") { [Side("Bindings", BindingsCases.computed(counter))] }
    let genericSink = Comparison("generic_sink") { [Side("Bindings", BindingsCases.genericSink(counter))] }
    let observe = Comparison("observe") { [Side("Bindings", BindingsCases.observe(counter))] }
    let listener = Comparison("listener") { [Side("Bindings", BindingsCases.listener(counter))] }
    let binding = Comparison("binding") { [
        Side("Bindings", BindingsCases.bindingIntoOwner(counter)),
        Side("OpenCombine", OpenCombineCases.assign(counter)),
    ] }
    let floors = Comparison("floors") { [
        Side("direct closure call", Floors.directClosureCall(counter)),
        Side("plain stored property set", Floors.plainSet()),
    ] }
    // Scaling: the same operation, small and large.
    let wide = Comparison("wide") { [
        Side("1 property", BindingsCases.setNotify(counter, subscribers: 1)),
        Side("1,000 properties", BindingsCases.setOneOfWide(counter)),
    ] }
    let cancelOne = Comparison("cancel_one") {
        // The same 100,000 live subscriptions in both (so that both miss the caches alike):
        // 10,000 models with 10 each, or one model with all of them.
        let small = CancelPlan(models: 10_000, perModel: 10, batchSize: 100)
        let large = CancelPlan(models: 1, perModel: 100_000, batchSize: 100)
        // And the small case with everything in the caches: 100 models with 10 each.
        let cached = CancelPlan(models: 100, perModel: 10, batchSize: 100)
        return [
            Side("Bindings, of 10", BindingsCases.cancelOne(counter, plan: small)),
            Side("Bindings, of 100,000", BindingsCases.cancelOne(counter, plan: large)),
            Side("OpenCombine, of 10", OpenCombineCases.cancelOne(counter, plan: small)),
            Side("OpenCombine, of 100,000", OpenCombineCases.cancelOne(counter, plan: large)),
            Side("Bindings, of 10, 1,000 alive", BindingsCases.cancelOne(counter, plan: cached)),
        ]
    }

    // The paths users take (issue #12).
    let liftedBinding = Comparison("bind_lifted") { [
        Side("Bindings", BindingsPathCases.liftedBinding(counter)),
        Side("OpenCombine", OpenCombinePathCases.liftedAssign(counter)),
    ] }
    let structValue = Comparison("struct_set_notify") { [
        Side("Bindings", BindingsPathCases.structSetNotify(counter)),
        Side("OpenCombine", OpenCombinePathCases.structSetNotify(counter)),
    ] }
    let increment = Comparison("increment_set_notify") { [
        Side("Bindings", BindingsPathCases.incrementNotify(counter)),
        Side("OpenCombine", OpenCombinePathCases.incrementNotify(counter)),
    ] }
    let createRelease = Comparison("bind_create_release") { [
        Side("Bindings", BindingsPathCases.createBindRelease(counter)),
        Side("OpenCombine", OpenCombinePathCases.createAssignRelease(counter)),
    ] }
    let computedBinding = Comparison("computed_bind") { [Side("Bindings", BindingsPathCases.computedBinding(counter))] }
    let computedObserve = Comparison("computed_observe") { [Side("Bindings", BindingsPathCases.computedObserve(counter))] }
    let computedSubscribeCancel = Comparison("computed_subscribe_cancel") { [
        Side("Bindings", BindingsPathCases.computedSubscribeCancel(counter)),
    ] }
    let computedSubscribeCancelSet = Comparison("computed_subscribe_cancel_set") { [
        Side("Bindings", BindingsPathCases.computedSubscribeCancelSet(counter)),
    ] }
    let observeOldNew = Comparison("observe_old_new") { [Side("Bindings", BindingsPathCases.observeOldNew(counter))] }
    let observableValue = Comparison("observable_value") { [
        Side("Bindings", BindingsPathCases.observableValue(counter)),
    ] }
    let chain = Comparison("chain_map_filter") { [
        Side("Bindings", BindingsPathCases.mapFilterChain(counter)),
        Side("OpenCombine", OpenCombinePathCases.mapFilterChain(counter)),
    ] }
    let manyModels = Comparison("many_models") { [
        Side("Bindings", BindingsPathCases.manyModels(counter, models: 20_000)),
        Side("OpenCombine", OpenCombinePathCases.manyModels(counter, models: 20_000)),
    ] }

    // Beyond KVO (issue #14).
    let batchComputed = Comparison("batch_2_sets_computed") { [
        Side("Bindings", BindingsBeyondKVOCases.batchTwoSetsComputed(counter)),
    ] }
    let autorunSet = Comparison("autorun") { [Side("Bindings", BindingsBeyondKVOCases.autorunSet(counter))] }
    let twoWayLeft = Comparison("two_way_set_left") { [Side("Bindings", BindingsBeyondKVOCases.twoWaySet(counter, onTheRight: false))] }
    let twoWayRight = Comparison("two_way_set_right") { [Side("Bindings", BindingsBeyondKVOCases.twoWaySet(counter, onTheRight: true))] }
    let bindModelOwner = Comparison("bind_into_model_owner") { [
        Side("Bindings", BindingsBeyondKVOCases.bindIntoModelOwner(counter)),
    ] }
    let bindMapped = Comparison("bind_map") { [Side("Bindings", BindingsBeyondKVOCases.bindMapped(counter))] }
    let bindNewModels = Comparison("bind_new_model") { [
        Side("Bindings", BindingsBeyondKVOCases.bindNewModels(counter)),
        Side("OpenCombine", OpenCombinePathCases.assignNewModels(counter)),
    ] }
    let inlineBinding = Comparison("inline_bind") { [Side("Bindings", BindingsBeyondKVOCases.inlineBinding(counter))] }
    let observeArray = Comparison("observe_array_append") { [
        Side("Bindings", BindingsBeyondKVOCases.observeArrayAppend(counter)),
    ] }
    let arrayAppend = Comparison("observable_array_append") { [
        Side("Bindings", BindingsBeyondKVOCases.observableArrayAppend(counter)),
        Side("OpenCombine", OpenCombinePathCases.arrayAppend(counter)),
    ] }

    // Combine parity (issue #13).
    let pipeline = Comparison("pipeline_5_stages") { [
        Side("Bindings", BindingsOperatorCases.pipeline(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.pipeline(counter)),
    ] }
    let share = Comparison("share_10_subscribers") { [
        Side("Bindings", BindingsOperatorCases.share(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.share(counter)),
    ] }

    let shareCompletion = Comparison("share_10_subscribers_with_completion") { [
        Side("Bindings", BindingsOperatorCases.shareWithCompletion(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.shareWithCompletion(counter)),
    ] }

    let receiveOn = Comparison("receive_on_immediate") { [
        Side("Bindings", BindingsOperatorCases.receiveOnImmediate(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.receiveOnImmediate(counter)),
    ] }
    let assign = Comparison("assign") { [
        Side("Bindings", BindingsOperatorCases.assign(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.assign(counter)),
    ] }
    let assignToProperty = Comparison("assign_to_property") { [
        Side("Bindings", BindingsOperatorCases.assignToProperty(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.assignToProperty(counter)),
    ] }
    let combineLatest = Comparison("combine_latest") { [Side("Bindings", BindingsOperatorCases.combineLatest(counter))] }
    let merge = Comparison("merge") { [Side("Bindings", BindingsOperatorCases.merge(counter))] }
    let flatMapJust = Comparison("flat_map_just") { [
        Side("Bindings", BindingsOperatorCases.flatMapJust(counter)),
        Side("OpenCombine", OpenCombineOperatorCases.flatMapJust(counter)),
    ] }

    // Made in main-actor code, measured on the main thread (see MainActorCases.swift).
    let mainActor = MainActorCases.comparisons(counter)

    let all = [setNotify, setUnobserved, setAfterLeft, perSubscriber, subscribeCancel, nested, subject,
               computed, genericSink, observe, listener, binding, floors, wide, cancelOne,
               liftedBinding, structValue, increment, createRelease, computedBinding, computedObserve, computedSubscribeCancel, computedSubscribeCancelSet,
               observeOldNew,
               observableValue, chain, manyModels, batchComputed, autorunSet, arrayAppend, pipeline, share, shareCompletion,
               twoWayLeft, twoWayRight, bindModelOwner, bindMapped, inlineBinding, observeArray, bindNewModels,
               receiveOn, assign, assignToProperty, flatMapJust, combineLatest, merge]
        + mainActor
    let selected = only.map { key in all.filter { $0.key == key } } ?? all
    if let only, only != "memory", selected.isEmpty {
        writeToStandardError("compare: no comparison is called \(only); see --help\n")
        exit(2)
    }
    progress("calibrating, then \(rounds) interleaved rounds")
    measure(selected, rounds: rounds, batches: batches, targetNanoseconds: target, progress: progress)

    // Untimed: memory and allocations.
    let subscriptions = 10_000
    let sets = 100_000
    var bytesB = Double.nan, bytesOC = Double.nan
    var allocationsB = Double.nan, allocationsOC = Double.nan
    var churnB = Double.nan, churnOC = Double.nan
    var derived = (computed: Double.nan, nested: Double.nan)
    var subscriptionB: (count: Int, sizes: [Int])?, subscriptionOC: (count: Int, sizes: [Int])?
    var pathAllocations: [(String, Double)] = []
    if only == nil || only == "memory" {
        progress("memory and allocations")
        bytesB = BindingsCases.bytesPerSubscription(counter, count: subscriptions)
        bytesOC = OpenCombineCases.bytesPerSubscription(counter, count: subscriptions)
        if bench_allocations_supported() != 0 {
            allocationsB = BindingsCases.allocationsPerNotification(counter, sets: sets)
            allocationsOC = OpenCombineCases.allocationsPerNotification(counter, sets: sets)
            churnB = BindingsCases.allocationsPerSubscribeCancel(counter, count: subscriptions)
            churnOC = OpenCombineCases.allocationsPerSubscribeCancel(counter, count: subscriptions)
            derived = BindingsCases.allocationsPerDerivedNotification(counter, sets: 1000)
            subscriptionB = BindingsCases.allocationsOfSubscription(counter)
            subscriptionOC = OpenCombineCases.allocationsOfSubscription(counter)
            // Each delivery path of the second table, on a side made afresh.
            pathAllocations = [
                ("`<~` Int", BindingsCases.bindingIntoOwner(counter)),
                ("`<~` String into String?", BindingsPathCases.liftedBinding(counter)),
                ("`<~` of a computed key path", BindingsPathCases.computedBinding(counter)),
                ("`observe` with [.old, .new]", BindingsPathCases.observeOldNew(counter)),
                ("`ObservableValue.update`", BindingsPathCases.observableValue(counter)),
                ("`CurrentValueSubject.send`", BindingsCases.currentValueSubject(counter)),
                ("`map`/`filter` chain", BindingsPathCases.mapFilterChain(counter)),
                ("20,000 models", BindingsPathCases.manyModels(counter, models: 20_000)),
                ("main actor `$x.sink`", MainActorCases.bindingsSink(counter)),
                ("main actor `observe`", MainActorCases.bindingsObserve(counter)),
                ("main actor `<~`", MainActorCases.bindingsBind(counter)),
            ].map { ($0.0, allocationsPerOperation($0.1, count: 40_000)) }
        }
    }

    // The tables.
    func speedup(_ comparison: Comparison) -> Double { comparison[1] / comparison[0] }
    func verdict(_ passed: Bool) -> String { passed ? "yes" : "**NO**" }

    var timings = Table(["operation (ns per op, best of \(rounds * batches) batches)", "Bindings", "OpenCombine", "speedup", "bar", "met"])
    func addTimed(_ name: String, _ comparison: Comparison, bar: Double?) {
        let ratio = speedup(comparison)
        timings.add([name, formatNanoseconds(comparison[0]), formatNanoseconds(comparison[1]),
                     formatRatio(ratio, suffix: "x"), bar.map { ">= \(Int($0))x" } ?? "",
                     bar.map { verdict(ratio >= $0) } ?? ""])
    }
    func addBindingsOnly(_ name: String, _ value: Double, note: String) {
        timings.add([name, formatNanoseconds(value), note, "", "", ""])
    }
    addTimed("set + notify, 1 subscriber (`@Observed`/`@Published`, `sink`)", setNotify, bar: 15)
    addTimed("set, nobody observing", setUnobserved, bar: 20)
    addTimed("set, after every observer cancelled", setAfterLeft, bar: nil)
    addTimed("per subscriber, 100 subscribers (one set / 100)", perSubscriber, bar: 10)
    addTimed("subscribe + cancel (`$value.sink`, `cancel()`)", subscribeCancel, bar: 10)
    addTimed("nested key path `\\.child.value`, set + notify", nested, bar: nil)
    addTimed("`CurrentValueSubject.send`, 1 subscriber", subject, bar: nil)
    addBindingsOnly("computed key path, 2 dependencies, set + notify", computed[0], note: "— (no combineLatest in 0.14)")
    addBindingsOnly("`publisher(for:)` + generic `sink`, set + notify", genericSink[0], note: "")
    addBindingsOnly("listener `$value.bind(target) { }`, set + notify", listener[0], note: "")
    addBindingsOnly("`observe(_:options:)` change handler, set + notify", observe[0], note: "")
    addTimed("`<~` binding into an owner (OpenCombine: `assign(to:on:)`), set + deliver", binding, bar: nil)
    addBindingsOnly("floor: direct closure call", floors[0], note: "")
    addBindingsOnly("floor: plain stored property set", floors[1], note: "")

    // The paths users take: ratios against OpenCombine, or against our own `$x.sink`.
    var paths = Table(["the paths users take (ns per op)", "Bindings", "compared with", "ratio", "bar", "met"])
    let sinkFigure = setNotify[0]
    func addPath(_ name: String, _ value: Double, against other: Double, speedupAtLeast bar: Double) {
        let ratio = other / value
        paths.add([name, formatNanoseconds(value), "OpenCombine " + formatNanoseconds(other),
                   formatRatio(ratio, suffix: "x"), ">= \(Int(bar))x", verdict(ratio >= bar)])
    }
    func addRelative(_ name: String, _ value: Double, atMost bar: Double) {
        let ratio = value / sinkFigure
        paths.add([name, formatNanoseconds(value), "`$x.sink` " + formatNanoseconds(sinkFigure),
                   formatRatio(ratio), "<= \(Int(bar))", verdict(ratio <= bar)])
    }
    // Both of Bindings' subjects against OpenCombine's `CurrentValueSubject.send`: the slower counts.
    let slowerSubject = max(subject[0], observableValue[0])
    addPath("`<~` Int into an owner, set + deliver (OpenCombine: `assign(to:on:)`)", binding[0], against: binding[1], speedupAtLeast: 10)
    addPath("`<~` String into String?, set + deliver (OpenCombine: `map(Optional.init).assign`)", liftedBinding[0], against: liftedBinding[1], speedupAtLeast: 8)
    // A struct-valued property: no bar, the context for the `Int` rows (see Docs/Performance.md).
    paths.add(["`$x.sink`, `x` a struct of 3 Strings, set + notify (OpenCombine: `@Published`)",
               formatNanoseconds(structValue[0]), "OpenCombine " + formatNanoseconds(structValue[1]),
               formatRatio(structValue[1] / structValue[0], suffix: "x"), "", ""])
    // An in-place mutation (`_modify`): no bar, the context for the set rows.
    paths.add(["`x += 1` in place, 1 `$x.sink` (OpenCombine: the same on `@Published`)",
               formatNanoseconds(increment[0]), "OpenCombine " + formatNanoseconds(increment[1]),
               formatRatio(increment[1] / increment[0], suffix: "x"), "", ""])
    addPath("an owner with 3 `<~` bindings, created and released (OpenCombine: 3 `assign` + `store(in:)`)", createRelease[0], against: createRelease[1], speedupAtLeast: 3)
    // A list's cell bound to one model after another: no bar, the context for the row above.
    paths.add(["a new model, bound into a reused owner with 2 `<~` (OpenCombine: 2 `assign(to:on:)`)",
               formatNanoseconds(bindNewModels[0]), "OpenCombine " + formatNanoseconds(bindNewModels[1]),
               formatRatio(bindNewModels[1] / bindNewModels[0], suffix: "x"), "", ""])
    addPath("`publisher(for: \\.child.value).sink`, set child.value (OpenCombine: `switchToLatest`)", nested[0], against: nested[1], speedupAtLeast: 5)
    addRelative("computed key path (2 dependencies), set + notify", computed[0], atMost: 6)
    addRelative("`<~` of that computed key path, set + deliver", computedBinding[0], atMost: 8)
    // KVO's change handler on the same key path: no bar, the context for the row above.
    paths.add(["`observe(_:options: [.new])` of that computed key path, set + notify",
               formatNanoseconds(computedObserve[0]), "`$x.sink` " + formatNanoseconds(sinkFigure),
               formatRatio(computedObserve[0] / sinkFigure), "", ""])
    addRelative("`publisher(for: computed).sink` + `cancel()`", computedSubscribeCancel[0], atMost: 100)
    // The same with a set of a dependency after each cancel, which ends the reuse: no bar.
    paths.add(["the same, then a set of `a` (no reuse: made and linked each time)",
               formatNanoseconds(computedSubscribeCancelSet[0]), "`$x.sink` " + formatNanoseconds(sinkFigure),
               formatRatio(computedSubscribeCancelSet[0] / sinkFigure), "", ""])
    addRelative("`observe(_:options: [.old, .new])` handler, set", observeOldNew[0], atMost: 3)
    addPath("`ObservableValue.update` (\(formatNanoseconds(observableValue[0]))) and `CurrentValueSubject.send` (\(formatNanoseconds(subject[0]))), 1 sink: the slower", slowerSubject, against: subject[1], speedupAtLeast: 4)
    addPath("`$x.map { }.filter { }.sink { }`, set (OpenCombine: the same on `@Published`)", chain[0], against: chain[1], speedupAtLeast: 8)
    addPath("20,000 models, one `$x.sink` each, set each once", manyModels[0], against: manyModels[1], speedupAtLeast: 10)

    var beyond = Table(["beyond KVO (Bindings, ns per op)", "Bindings", "compared with", "ratio", "bar", "met"])
    let batchRatio = batchComputed[0] / computed[0]
    beyond.add(["a batch of 2 sets, 1 observer of a computed key path over both",
                formatNanoseconds(batchComputed[0]), "1 set + notify of it " + formatNanoseconds(computed[0]),
                formatRatio(batchRatio), "<= 1.5", verdict(batchRatio <= 1.5)])
    let autorunRatio = autorunSet[0] / sinkFigure
    beyond.add(["`autorun` over 2 properties, set + run", formatNanoseconds(autorunSet[0]),
                "`$x.sink` " + formatNanoseconds(sinkFigure), formatRatio(autorunRatio), "<= 8",
                verdict(autorunRatio <= 8)])

    let arraySpeedup = arrayAppend[1] / arrayAppend[0]
    beyond.add(["`ObservableArray.append`, 1 `changes` sink, arrays of 1,000", formatNanoseconds(arrayAppend[0]),
                "OpenCombine `CurrentValueSubject<[Int], Never>`: `value.append` " + formatNanoseconds(arrayAppend[1]),
                formatRatio(arraySpeedup, suffix: "x"), ">= 10x", verdict(arraySpeedup >= 10)])

    // Other paths users take, with no bar: each against `$x.sink`, or (the key path of an
    // array) against the same append with a `changes` sink.
    for (name, comparison) in [
        ("`<~>` two-way binding, set the left side (the right is written)", twoWayLeft),
        ("`<~>` two-way binding, set the right side (the left is written)", twoWayRight),
        ("`<~` into an `@Observed` property of a model that is also an owner, set + deliver", bindModelOwner),
        ("`<~` of `$x.map { }` (an operator between source and target), set + deliver", bindMapped),
        ("`bind(to:) { }` inline binding, set + deliver", inlineBinding),
    ] {
        beyond.add([name, formatNanoseconds(comparison[0]), "`$x.sink` " + formatNanoseconds(sinkFigure),
                    formatRatio(comparison[0] / sinkFigure), "", ""])
    }
    beyond.add(["`ObservableArray.append` seen by `observe(\\.tasks, options: [.new])`, arrays of 1,000 emptied each time",
                formatNanoseconds(observeArray[0]), "1 `changes` sink " + formatNanoseconds(arrayAppend[0]),
                formatRatio(observeArray[0] / arrayAppend[0]), "", ""])

    var parity = Table(["Combine parity (ns per send)", "Bindings", "OpenCombine", "speedup", "bar", "met"])
    for (name, comparison) in [
        ("`PassthroughSubject` → `map` → `filter` → `removeDuplicates` → `scan` → `sink`", pipeline),
        ("`share()` of a `PassthroughSubject`, 10 `sink` subscribers", share),
    ] {
        let ratio = comparison[1] / comparison[0]
        parity.add([name, formatNanoseconds(comparison[0]), formatNanoseconds(comparison[1]),
                    formatRatio(ratio, suffix: "x"), ">= 5x", verdict(ratio >= 5)])
    }
    parity.add(["(context) the same, each `sink(receiveCompletion:receiveValue:)` (a `Subscribers.Sink`)",
                formatNanoseconds(shareCompletion[0]), formatNanoseconds(shareCompletion[1]),
                formatRatio(shareCompletion[1] / shareCompletion[0], suffix: "x"), "", ""])
    for (name, comparison) in [
        ("`PassthroughSubject` → `receive(on: ImmediateScheduler.shared)` → `sink`", receiveOn),
        ("`PassthroughSubject` → `assign(to: \\.number, on: target)`", assign),
        ("`PassthroughSubject` → `assign(to: &model.$value)` (`@Observed`; OpenCombine: `@Published`)", assignToProperty),
        ("`flatMap { Just($0) }` → `sink` (a new inner subscription each send)", flatMapJust),
    ] {
        parity.add([name, formatNanoseconds(comparison[0]), formatNanoseconds(comparison[1]),
                    formatRatio(comparison[1] / comparison[0], suffix: "x"), "", ""])
    }
    for (name, comparison) in [
        ("`$a.combineLatest($b)` → `sink`, set `a`", combineLatest),
        ("`$a.merge(with: $b)` → `sink`, set `a`", merge),
    ] {
        parity.add([name, formatNanoseconds(comparison[0]), "— (none in 0.14); `$x.sink` " + formatNanoseconds(sinkFigure),
                    formatRatio(comparison[0] / sinkFigure), "", ""])
    }

    let wideRatio = wide[1] / wide[0]
    let cancelRatio = cancelOne[1] / cancelOne[0]
    var scaling = Table(["scaling (Bindings, ns per op)", "small", "large", "ratio", "bar", "met"])
    scaling.add(["set + notify: one of 1 vs one of 1,000 observed properties",
                 formatNanoseconds(wide[0]), formatNanoseconds(wide[1]), formatRatio(wideRatio),
                 "<= 1.5", verdict(wideRatio <= 1.5)])
    scaling.add(["cancel one of 10 vs one of 100,000 subscriptions (100,000 alive in both)",
                 formatNanoseconds(cancelOne[0]), formatNanoseconds(cancelOne[1]), formatRatio(cancelRatio),
                 "<= 2.0", verdict(cancelRatio <= 2.0)])
    scaling.add(["(context) the same, small case with only 1,000 alive (all in cache)",
                 formatNanoseconds(cancelOne[4]), formatNanoseconds(cancelOne[1]),
                 formatRatio(cancelOne[1] / cancelOne[4]), "", ""])
    scaling.add(["(context) OpenCombine, the same cancel, 100,000 alive in both",
                 formatNanoseconds(cancelOne[2]), formatNanoseconds(cancelOne[3]),
                 formatRatio(cancelOne[3] / cancelOne[2]), "", ""])

    let memoryRatio = bytesB / bytesOC
    var memory = Table(["memory and allocations", "Bindings", "OpenCombine", "ratio", "bar", "met"])
    memory.add(["bytes per subscription (malloc bytes in use)", formatNanoseconds(bytesB),
                formatNanoseconds(bytesOC), formatRatio(memoryRatio), "<= 0.25", verdict(memoryRatio <= 0.25)])
    memory.add(["heap allocations per notification (1 subscriber)", formatRatio(allocationsB),
                formatRatio(allocationsOC), "", "0", verdict(allocationsB == 0)])
    memory.add(["heap allocations per subscribe + cancel", formatRatio(churnB), formatRatio(churnOC), "", "", ""])
    func describe(_ counted: (count: Int, sizes: [Int])?) -> String {
        guard let counted else { return "—" }
        return "\(counted.count): " + counted.sizes.map(String.init).joined(separator: "+") + " B"
    }
    memory.add(["allocations of one more subscription (requested sizes)", describe(subscriptionB),
                describe(subscriptionOC), "", "", ""])
    memory.add(["heap allocations per notification, computed key path", formatRatio(derived.computed), "", "", "", ""])
    memory.add(["heap allocations per notification, nested key path", formatRatio(derived.nested), "", "", "", ""])
    for (name, allocations) in pathAllocations {
        memory.add(["heap allocations per delivery, \(name)", formatRatio(allocations), "", "", "0", verdict(allocations == 0)])
    }

    let heading = """
        Bindings vs OpenCombine 0.14.0: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores, \
        load average before the run \(firstLine(ofFile: "/proc/loadavg").map { String($0.prefix(14)) } ?? "unknown")
        """
    let tables = [timings.render(), paths.render(), beyond.render(), parity.render(), scaling.render(), memory.render()]
    let notes = """
        How each figure is measured: each timed operation runs in a loop in an @inline(never)
        function that takes the model as a parameter; Bindings and OpenCombine take turns, \
        \(rounds) rounds each of \(batches) timed batches of about 2 ms, and the best batch counts.
        \(multiThreaded
            ? "The process started a second thread first, as any program with a Dispatch queue or timer has (glibc's mutexes skip their atomic instructions until then)."
            : "--single-threaded: the process never started a second thread, so glibc's mutexes skipped their atomic instructions.")
        - set + notify: `model.value = i` with one `$value.sink` subscriber that adds the value to a counter.
        - set, nobody observing: a model never subscribed to; an opaque C call after each set keeps
          the optimizer from deleting the stores (its cost is the plain stored property floor).
          "After every observer cancelled": the same, on a model that had two subscribers, both cancelled.
        - per subscriber: one set delivered to 100 `sink` subscribers, divided by 100.
        - subscribe + cancel: `let c = model.$value.sink { ... }; c.cancel()`, the initial value
          delivered to the closure included.
        - cancel one of N: cancel() of a subscription picked at random among the N live ones of a property,
          in timed batches of 100; the cancelled ones are re-subscribed, untimed, after each batch. Both
          sizes keep 100,000 subscriptions alive: 10,000 models with 10 each (a batch takes one of each of
          100 random models), or one model with 100,000. A context row shows the small case with only 1,000
          alive, all in the caches: the difference is cache misses, not work that grows with N.
        - `<~`: `target.reactive.number <~ model.reactive.value`, then sets; OpenCombine's row is
          `model.$value.assign(to: \\.number, on: target)`.
        - the paths users take: `<~` Int is the `<~` row above; `<~` String sets one of four names into a
          `String?`; an owner with 3 bindings is made, bound (`number` and `other` to an Int, `text` to a
          String) and released, against 3 `assign(to:on:)` stored in a set that ends with it; computed key
          paths are `sum` (a + b), set through `a`; subscribe + cancel of `sum` runs in a loop, which reuses
          the observation left idle by the last cancel, and again with a set of `a` after each cancel, which
          makes the idle observation leave (so each subscription makes it anew); the subject row counts the
          slower of Bindings' two; the
          chain maps and filters every value; 20,000 models each have one sink and are set in turn.
        - Combine parity: a `send` on a `PassthroughSubject`, through `map`, `filter` (half the values
          pass), `removeDuplicates` and `scan` into a `sink`; and through `share()` to 10 `sink`s.
          With no bar: through `receive(on: ImmediateScheduler.shared)` (the operator's own cost, no
          thread hop), `assign(to:on:)` into an object's property, `assign(to: &model.$value)` into a
          model's property (`@Observed`; OpenCombine: `@Published`), and `flatMap { Just($0) }`; and
          `combineLatest` and `merge` of two `@Observed` properties, one of them set (as a ratio to
          `$x.sink`: OpenCombine 0.14 has neither).
        - one of 1,000 properties: a set of the middle property of a model whose 1,000 @Observed
          properties each have a `sink` subscriber, against the 1-property model.
        - bytes per subscription: mallinfo2().uordblks (bytes in use, chunk headers included) after
          \(subscriptions) more `sink` subscriptions to one property, kept alive, minus before, / \(subscriptions).
        - allocations: calls to malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign on the
          benchmark thread, counted by interposition, over \(sets) sets after a warm-up, per set.
        - listener: `model.$value.bind(target) { target, value in target.number = value }`.
        - two-way: `model.reactive.value <~> field.reactive.number`, `field` a model that is also an owner;
          `<~` into a model that is also an owner: `field.reactive.number <~ model.reactive.value`;
          inline binding: `model.reactive.value.bind(to: label) { label, value in label.number = value }`;
          through an operator: `label.reactive.number <~ model.reactive.value.map { $0 &* 2 }`.
        - a new model into a reused owner: each time a new model of two `@Observed` properties, the owner's
          `subscriptions` emptied (ending its two bindings), two `<~` made; OpenCombine: the same with
          `@Published` properties and two `assign(to:on:)` stored in the owner's set.
        - `observe(\\.tasks)`: a model's `let tasks = ObservableArray<Int>()`, observed with `[.new]`;
          1,000 appends, then `removeAll(keepingCapacity: true)` (one changeset), per 1,000 operations.
        - main actor: the `$x.sink`, two-closure `sink`, change handler, listener and `<~` rows made in a
          `@MainActor` function (the listener and the `<~` into an owner whose `BindingOwner` conformance
          is isolated to the main actor), set on the
          main actor: on the main thread (a synchronous `main.swift`), then in a block of the main queue
          run by a worker thread (an `async` main, or `dispatchMain()`). OpenCombine calls its closures
          where the value is sent, with no check.
        checksum \(counter.total)
        """

    var json = JSONReport()
    json.add("set_notify_1_subscriber", [("bindings_ns", setNotify[0]), ("opencombine_ns", setNotify[1]), ("speedup", speedup(setNotify))])
    json.add("set_unobserved", [("bindings_ns", setUnobserved[0]), ("opencombine_ns", setUnobserved[1]), ("speedup", speedup(setUnobserved))])
    json.add("per_subscriber_100", [("bindings_ns", perSubscriber[0]), ("opencombine_ns", perSubscriber[1]), ("speedup", speedup(perSubscriber))])
    json.add("subscribe_cancel", [("bindings_ns", subscribeCancel[0]), ("opencombine_ns", subscribeCancel[1]), ("speedup", speedup(subscribeCancel))])
    json.add("memory_per_subscription_bytes", [("bindings", bytesB), ("opencombine", bytesOC), ("ratio", memoryRatio)])
    json.add("allocations_per_notification", [("bindings", allocationsB), ("opencombine", allocationsOC)])
    json.add("set_one_of_1000_properties_vs_1", [("bindings_ns_1", wide[0]), ("bindings_ns_1000", wide[1]), ("ratio", wideRatio)])
    json.add("cancel_one_of_100000_vs_10", [("bindings_ns_10", cancelOne[0]), ("bindings_ns_100000", cancelOne[1]), ("ratio", cancelRatio)])
    func pair(_ comparison: Comparison) -> [(String, Double)] {
        [("bindings_ns", comparison[0]), ("opencombine_ns", comparison[1]), ("speedup", speedup(comparison))]
    }
    func relative(_ value: Double) -> [(String, Double)] {
        [("bindings_ns", value), ("sink_ns", sinkFigure), ("ratio", value / sinkFigure)]
    }
    json.add("bind_set_deliver", pair(binding))
    json.add("bind_lifted_set_deliver", pair(liftedBinding))
    json.add("struct_set_notify", pair(structValue))
    json.add("increment_set_notify", pair(increment))
    json.add("bind_create_release_3", pair(createRelease))
    json.add("nested_set_notify", pair(nested))
    json.add("computed_set_notify_vs_sink", relative(computed[0]))
    json.add("computed_bind_vs_sink", relative(computedBinding[0]))
    json.add("computed_observe_vs_sink", relative(computedObserve[0]))
    json.add("computed_subscribe_cancel_vs_sink", relative(computedSubscribeCancel[0]))
    json.add("computed_subscribe_cancel_set_vs_sink", relative(computedSubscribeCancelSet[0]))
    json.add("observe_old_new_vs_sink", relative(observeOldNew[0]))
    json.add("current_value_send", [
        ("bindings_ns", slowerSubject), ("observable_value_ns", observableValue[0]),
        ("current_value_subject_ns", subject[0]), ("opencombine_ns", subject[1]), ("speedup", subject[1] / slowerSubject),
    ])
    json.add("chain_map_filter", pair(chain))
    json.add("many_models_20k", pair(manyModels))
    json.add("batch_2_sets_computed_vs_1", [
        ("bindings_ns", batchComputed[0]), ("computed_ns", computed[0]), ("ratio", batchRatio),
    ])
    json.add("autorun_vs_sink", relative(autorunSet[0]))
    json.add("observable_array_append_1000", pair(arrayAppend))
    json.add("two_way_set_left_vs_sink", relative(twoWayLeft[0]))
    json.add("two_way_set_right_vs_sink", relative(twoWayRight[0]))
    json.add("bind_into_model_owner_vs_sink", relative(bindModelOwner[0]))
    json.add("bind_map_vs_sink", relative(bindMapped[0]))
    json.add("inline_bind_vs_sink", relative(inlineBinding[0]))
    json.add("bind_new_model", pair(bindNewModels))
    json.add("observe_array_append_vs_changes", [
        ("bindings_ns", observeArray[0]), ("changes_ns", arrayAppend[0]), ("ratio", observeArray[0] / arrayAppend[0]),
    ])
    json.add("pipeline_5_stages", pair(pipeline))
    json.add("share_10_subscribers", pair(share))
    json.add("receive_on_immediate", pair(receiveOn))
    json.add("assign", pair(assign))
    json.add("assign_to_property", pair(assignToProperty))
    json.add("flat_map_just", pair(flatMapJust))
    json.add("combine_latest_vs_sink", relative(combineLatest[0]))
    json.add("merge_vs_sink", relative(merge[0]))

    return (ComparisonReport(heading: heading, tables: tables, notes: notes, json: json), mainActor)
}

extension ComparisonReport {
    /// Adds the main-actor table: the comparisons of `MainActorCases` measured on the main
    /// thread, and again (if measured) in a main-queue block on a worker thread.
    mutating func addMainActorTable(onMainThread: [Comparison], onWorker: [Comparison]?) {
        var table = Table(["main actor (ns per op): made and set on it", "Bindings", "OpenCombine", "speedup"])
        // For each comparison's key: the row's name and the JSON key.
        let rows = [
            "main_actor_sink": ("`$x.sink`, set + notify", "main_actor_sink_set_notify"),
            "main_actor_observe": ("`observe(_:options:)` change handler, set + notify", "main_actor_observe"),
            "main_actor_listener": ("listener `$x.bind(label) { }` (a main-actor owner), set + notify", "main_actor_listener"),
            "main_actor_sink_completion": ("`sink(receiveCompletion:receiveValue:)`, set + notify",
                                           "main_actor_sink_completion"),
            "main_actor_bind": ("`<~` into a main-actor owner (OpenCombine: `assign(to:on:)`), set + deliver",
                                "main_actor_bind_set_deliver"),
        ]
        for (place, suffix, comparisons) in [
            ("on the main thread", "", onMainThread), ("in a main-queue block on a worker", "_worker", onWorker ?? []),
        ] {
            for comparison in comparisons where comparison[0].isFinite {
                guard let (name, key) = rows[comparison.key] else { continue }
                let other = comparison.sides.count > 1 ? comparison[1] : .nan
                table.add(["\(name), \(place)", formatNanoseconds(comparison[0]), formatNanoseconds(other),
                           formatRatio(other / comparison[0], suffix: "x")])
                json.add(key + suffix, [("bindings_ns", comparison[0]), ("opencombine_ns", other),
                                        ("speedup", other / comparison[0])])
            }
        }
        tables.insert(table.render(), at: 2)
    }
}
