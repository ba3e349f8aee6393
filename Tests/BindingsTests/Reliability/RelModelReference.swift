/// The reference model of SPEC section 6's delivery semantics, with no threads, locks or
/// library code: what every observer must receive.
///
/// The rules it encodes:
/// - A set stores the value, then notifies. Each observable value (stored property,
///   `ObservableValue`, computed or chained key path) delivers its values in set order:
///   a value set while that value is already delivering (from inside a callback) waits in
///   a queue and goes to every observer after the current one ("never stale": no
///   observer gets a newer value before an older one, and all end with the last).
/// - An observer receives the values set after it joined; with `.initial` it first gets
///   the current value, at once. One removed gets nothing more, at once.
/// - A computed or chained key path depends on what its getter reads; after each change
///   of a dependency it is evaluated again, and depends on what it read this time (a
///   replaced chain link, a switched dependency), then delivers its new value.
/// - Every observer of one computed or chained key path of one model shares one derived
///   observation: one evaluation per change, delivered through one channel, so that all
///   of them see the same values in the same order. It depends on its sources while it
///   has observers, and re-evaluates what it reads when the first observer comes back.
final class RelModelReference: RelModelSystem {
    /// One observable value's observers and queue.
    final class Channel {
        let name: String
        var observers: [Entry] = []
        var delivering = false
        var sequence = 0
        var pending: [(sequence: Int, value: Int, target: Entry?)] = []

        init(_ name: String) { self.name = name }

        func send(_ value: Int) {
            sequence += 1
            if delivering {
                pending.append((sequence, value, nil))
                return
            }
            if observers.isEmpty { return }
            delivering = true
            deliver(value, sequence: sequence)
            drain()
        }

        func add(_ entry: Entry, initial: Int?) {
            entry.joinedAfter = sequence
            observers.append(entry)
            guard let initial else { return }
            if delivering {
                entry.receive(initial)   // re-entrant: at once, before the queue
            } else {
                delivering = true
                if !entry.cancelled { entry.receive(initial) }
                drain()
            }
        }

        func remove(_ entry: Entry) {
            entry.cancelled = true
            observers.removeAll { $0 === entry }
        }

        private func deliver(_ value: Int, sequence: Int) {
            for entry in observers where entry.joinedAfter < sequence && !entry.cancelled {
                entry.receive(value)
            }
        }

        private func drain() {
            while !pending.isEmpty {
                let next = pending.removeFirst()
                if let target = next.target {
                    if !target.cancelled { target.receive(next.value) }
                } else {
                    deliver(next.value, sequence: next.sequence)
                }
            }
            delivering = false
        }
    }

    final class Entry {
        var joinedAfter = 0
        var cancelled = false
        let receive: (Int) -> Void
        init(_ receive: @escaping (Int) -> Void) { self.receive = receive }
    }

    final class Child {
        var x: Int
        let channel: Channel
        init(x: Int, name: String) {
            self.x = x
            channel = Channel(name)
        }
    }

    final class Model {
        var a = 0, b = 0, flag = false
        var child: Child
        let channelA: Channel, channelB: Channel, channelFlag: Channel, channelChild: Channel
        init(_ index: Int) {
            channelA = Channel("m\(index).a")
            channelB = Channel("m\(index).b")
            channelFlag = Channel("m\(index).flag")
            channelChild = Channel("m\(index).child")
            child = Child(x: 0, name: "m\(index).child.x")
        }
    }

    /// A computed or chained key path under observation: while it has observers it
    /// depends on channels through links, and delivers through its own channel to all of
    /// them. When the last observer goes it stays linked, idle (every key path here reads
    /// a property of its model), until the next change of a dependency, which unlinks it;
    /// an observer that comes while it is idle finds the links as they are.
    final class Derived {
        let model: Model
        let key: RelModelKey
        let channel = Channel("derived")
        var links: [(Channel, Entry)] = []
        /// Observers attached.
        var interest = 0
        /// Linked: with observers, or idle.
        var active = false

        init(model: Model, key: RelModelKey) {
            self.model = model
            self.key = key
        }

        var value: Int {
            switch key {
            case .sum: model.a + model.b
            case .pick: model.flag ? model.a : model.b
            case .chainX: model.child.x
            default: fatalError("not derived")
            }
        }

        /// What evaluating the key path reads, in order.
        var sources: [Channel] {
            switch key {
            case .sum: [model.channelA, model.channelB]
            case .pick: [model.channelFlag, model.flag ? model.channelA : model.channelB]
            case .chainX: [model.channelChild, model.child.channel]
            default: []
            }
        }

        func relink() {
            guard active else { return }
            let wanted = sources
            var kept: [(Channel, Entry)] = []
            for link in links {
                if wanted.contains(where: { $0 === link.0 }) { kept.append(link) } else { link.0.remove(link.1) }
            }
            links = kept
            for source in wanted where !links.contains(where: { $0.0 === source }) {
                // A chain's last property: its values are the chain's, sent on as they are
                // (each value set, in order), with no evaluation.
                let forwards = key == .chainX && source === model.child.channel
                let entry = Entry { [unowned self] value in
                    if forwards { forwarded(value) } else { dependencyChanged() }
                }
                source.add(entry, initial: nil)
                links.append((source, entry))
            }
        }

        func dependencyChanged() {
            guard active else { return }
            guard interest > 0 else { return leave() }
            relink()
            channel.send(value)
        }

        func forwarded(_ value: Int) {
            guard active else { return }
            guard interest > 0 else { return leave() }
            channel.send(value)
        }

        /// An observer comes: the first one, unless idle, makes it read the model afresh
        /// and link.
        func addInterest() {
            interest += 1
            if !active {
                active = true
                relink()
            }
        }

        /// An observer goes: the last one leaves it idle.
        func removeInterest() {
            interest -= 1
        }

        /// Leaves the dependencies (a change while idle).
        func leave() {
            active = false
            for link in links { link.0.remove(link.1) }
            links = []
        }
    }

    private let models = (0..<RelModelGenerator.models).map(Model.init)
    private var value = 0
    private let valueChannel = Channel("value")
    private var attached: [Int: (channel: Channel, entry: Entry, derived: Derived?)] = [:]
    /// The derived observation of each model's computed and chained key paths.
    private var derived: [String: Derived] = [:]

    func set(model index: Int, _ what: RelModelSet, value: Int) {
        let model = models[index]
        switch what {
        case .a:
            model.a = value
            model.channelA.send(value)
        case .b:
            model.b = value
            model.channelB.send(value)
        case .flag:
            model.flag.toggle()
            model.channelFlag.send(model.flag ? 1 : 0)
        case .childX:
            model.child.x = value
            model.child.channel.send(value)
        case .replaceChild:
            model.child = Child(x: value, name: "m\(index).child.x")
            model.channelChild.send(0)
        }
    }

    func update(_ value: Int) {
        self.value = value
        valueChannel.send(value)
    }

    func add(id: Int, _ spec: RelModelObserverSpec, receive: @escaping (Int) -> Void) {
        let entry = Entry(receive)
        switch spec.target {
        case .value:
            attached[id] = (valueChannel, entry, nil)
            valueChannel.add(entry, initial: spec.api.initial ? value : nil)
        case .model(let index, let key):
            let model = models[index]
            let channel: Channel
            switch key {
            case .a: channel = model.channelA
            case .b: channel = model.channelB
            case .flag: channel = model.channelFlag
            default:
                let derived = self.derived["\(index).\(key)", default: Derived(model: model, key: key)]
                self.derived["\(index).\(key)"] = derived
                derived.addInterest()
                attached[id] = (derived.channel, entry, derived)
                derived.channel.add(entry, initial: spec.api.initial ? derived.value : nil)
                return
            }
            attached[id] = (channel, entry, nil)
            channel.add(entry, initial: spec.api.initial ? current(spec.target) : nil)
        }
    }

    func remove(id: Int) {
        guard let (channel, entry, derived) = attached.removeValue(forKey: id) else { return }
        channel.remove(entry)
        derived?.removeInterest()
    }

    func current(_ target: RelModelTarget) -> Int {
        switch target {
        case .value: return value
        case .model(let index, let key):
            let model = models[index]
            switch key {
            case .a: return model.a
            case .b: return model.b
            case .flag: return model.flag ? 1 : 0
            case .sum: return model.a + model.b
            case .pick: return model.flag ? model.a : model.b
            case .chainX: return model.child.x
            }
        }
    }

    func observerCounts() -> [Int] {
        [valueChannel.observers.count] + models.flatMap { model in
            [model.channelA, model.channelB, model.channelFlag, model.channelChild, model.child.channel]
                .map { $0.observers.count }
        }
    }
}
