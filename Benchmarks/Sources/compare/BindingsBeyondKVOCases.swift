import Bindings

// The rows of issue #14 ("Beyond KVO"): batches, autorun, observable collections.

@inline(never)
func bindingsBatchSetAB(_ model: BindingsPair, _ count: Int) {
    for i in 0..<count {
        batchChanges {
            model.a = i
            model.b = i
        }
    }
}

enum BindingsBeyondKVOCases {
    /// A batch of 2 sets, with one observer of the computed key path over both: one
    /// notification per batch. Compared with one set + notify of that key path (the
    /// `computed` row).
    static func batchTwoSetsComputed(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let subscription = model.publisher(for: \.sum).sink { counter.total &+= $0 }
        return { count in
            withExtendedLifetime(subscription) { timed { bindingsBatchSetAB(model, count) } }
        }
    }

    /// `autorun` over 2 properties; a set of one of them runs it.
    static func autorunSet(_ counter: Counter) -> Run {
        let model = BindingsPair()
        let reaction = autorun { counter.total &+= model.a &+ model.b }
        return { count in
            withExtendedLifetime(reaction) { timed { bindingsSetA(model, count) } }
        }
    }
}

@inline(never)
func bindingsAppend(_ array: ObservableArray<Int>, _ count: Int) {
    for i in 0..<count { array.append(i) }
}

extension BindingsBeyondKVOCases {
    /// `ObservableArray.append` with one `changes` subscriber: arrays of 1,000 elements
    /// built by appending, timed per append (making each array and its subscriber is not
    /// timed).
    static func observableArrayAppend(_ counter: Counter) -> Run {
        { count in
            var elapsed: UInt64 = 0
            var remaining = count
            while remaining > 0 {
                let appends = min(1_000, remaining)
                let array = ObservableArray<Int>()
                let subscription = array.changes.sink { counter.total &+= $0.changes.count }
                elapsed &+= timed { bindingsAppend(array, appends) }
                remaining -= appends
                withExtendedLifetime(subscription) {}
            }
            return elapsed
        }
    }
}
