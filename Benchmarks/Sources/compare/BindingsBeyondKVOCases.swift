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
