import Testing
@testable import Bindings

// Re-entrancy through bindings: sets made inside callbacks, through `a <~ b`, leave
// every side current (SPEC 6: every observer's last value is the property's value).

@Suite("Bindings: re-entrancy")
struct BindReentrancyTests {
    @Test func sourceObserverSetsTheSourceAgain() {
        let a = BindViewModel(name: "a0")
        let b = BindViewModel(name: "b0")
        var bSeen: [String] = []
        let bObserver = b.$name.sink { value in
            bSeen.append(value)
            if value == "1" { b.name = "2" }
        }
        a.reactive.name <~ b.reactive.name
        var aSeen: [String] = []
        let aObserver = a.$name.sink { aSeen.append($0) }
        b.name = "1"
        #expect(bSeen == ["b0", "1", "2"])
        #expect(aSeen == ["b0", "1", "2"])
        #expect(a.name == "2")
        #expect(b.name == "2")
        withExtendedLifetime((aObserver, bObserver)) {}
    }

    @Test func sourceObserverSetsTheTargetBeforeTheBindingRuns() {
        let a = BindViewModel(name: "a0")
        let b = BindViewModel(name: "b0")
        let bObserver = b.$name.dropFirst().sink { a.name = "override-\($0)" }
        a.reactive.name <~ b.reactive.name
        var aSeen: [String] = []
        let aObserver = a.$name.sink { aSeen.append($0) }
        b.name = "1"
        #expect(aSeen == ["b0", "override-1", "1"])
        #expect(a.name == "1")
        #expect(aSeen.last == a.name)
        withExtendedLifetime((aObserver, bObserver)) {}
    }

    @Test func sourceObserverSetsTheTargetAfterTheBindingRan() {
        let a = BindViewModel(name: "a0")
        let b = BindViewModel(name: "b0")
        a.reactive.name <~ b.reactive.name
        let bObserver = b.$name.dropFirst().sink { a.name = "override-\($0)" }
        var aSeen: [String] = []
        let aObserver = a.$name.sink { aSeen.append($0) }
        b.name = "1"
        #expect(aSeen == ["b0", "1", "override-1"])
        #expect(a.name == "override-1")
        withExtendedLifetime((aObserver, bObserver)) {}
    }

    @Test func targetObserverSetsTheSourceAgain() {
        let a = BindViewModel(name: "a0")
        let b = BindViewModel(name: "b0")
        var bEarly: [String] = []
        let bEarlyObserver = b.$name.sink { bEarly.append($0) }
        a.reactive.name <~ b.reactive.name
        var bLate: [String] = []
        let bLateObserver = b.$name.sink { bLate.append($0) }
        var aSeen: [String] = []
        let aObserver = a.$name.sink { value in
            aSeen.append(value)
            if value == "1" { b.name = "2" }
        }
        b.name = "1"
        #expect(aSeen == ["b0", "1", "2"])
        #expect(bEarly == ["b0", "1", "2"])
        #expect(bLate == ["b0", "1", "2"])
        #expect(a.name == "2")
        #expect(b.name == "2")
        withExtendedLifetime((aObserver, bEarlyObserver, bLateObserver)) {}
    }

    @Test func twoWayBindingSettlesWithBothSidesCurrent() {
        let a = BindViewModel(name: "a0")
        let b = BindViewModel(name: "b0")
        a.reactive.name <~ b.reactive.name.removeDuplicates()
        b.reactive.name <~ a.reactive.name.removeDuplicates()
        var aSeen: [String] = []
        var bSeen: [String] = []
        let observers = [a.$name.sink { aSeen.append($0) }, b.$name.sink { bSeen.append($0) }]
        b.name = "1"
        a.name = "2"
        #expect(a.name == "2")
        #expect(b.name == "2")
        // Every set notifies: each side hears its own set, then the echo of the binding.
        #expect(aSeen == ["b0", "1", "2", "2"])
        #expect(bSeen == ["b0", "1", "1", "2"])
        withExtendedLifetime(observers) {}
    }

    @Test func bindingSetterSetsItsOwnSourceAgain() {
        let source = BindViewModel(name: "s0")
        let label = BindLabel()
        BindingSink<BindLabel, String>(owner: label) { label, value in
            label.name = value
            if value == "1" { source.name = "2" }
        } <~ source.reactive.name
        var seen: [String] = []
        let observer = source.$name.sink { seen.append($0) }
        source.name = "1"
        #expect(label.nameSets == ["s0", "1", "2"])
        #expect(seen == ["s0", "1", "2"])
        withExtendedLifetime(observer) {}
    }

    @Test func listenerSetsTheValueAgain() {
        let value = ObservableValue("v0")
        let first = BindLabel()
        let second = BindLabel()
        value.bind(first) { label, text in
            label.name = text
            if text == "1" { value.update("2") }
        }
        value.bind(second) { label, text in label.name = text }
        value.update("1")
        #expect(first.nameSets == ["v0", "1", "2"])
        #expect(second.nameSets == ["v0", "1", "2"])
        #expect(value.value == "2")
    }
}
