import CMallocCounter

// The floors: what the operations cost with no library at all.

/// A subscriber's closure stored in an object, as a hand-written callback would be.
final class CallbackHolder {
    let body: (Int) -> Void
    init(_ body: @escaping (Int) -> Void) { self.body = body }
}

/// A plain stored property.
final class PlainModel {
    var value = 0
}

@inline(never)
func callDirectly(_ holder: CallbackHolder, _ count: Int) {
    for i in 0..<count { holder.body(i) }
}

@inline(never)
func setPlainOpaque(_ model: PlainModel, _ count: Int) {
    for i in 0..<count {
        model.value = i
        bench_opaque(Unmanaged.passUnretained(model).toOpaque())
    }
}

enum Floors {
    /// The subscriber's closure, called directly: the floor of set + notify.
    static func directClosureCall(_ counter: Counter) -> Run {
        let holder = CallbackHolder { counter.total &+= $0 }
        return { count in timed { callDirectly(holder, count) } }
    }

    /// A plain stored property set, with the same opaque call as the unobserved sets: the
    /// floor of a set that nobody observes.
    static func plainSet() -> Run {
        let model = PlainModel()
        return { count in timed { setPlainOpaque(model, count) } }
    }
}
