import BindingsTestSupport
import Testing
@testable import Bindings

// Model-based checks of `ObservableArray` (SPEC section 3b): random edits of every kind
// are made on the array and on a plain `[Int]` alike, and a mirror that starts empty
// and applies every changeset must equal each changeset's `collection`, the array and
// the reference after every step. Then the same with four threads editing at once: the
// subscribers' mirrors must equal the final array, and each other.

/// A subscriber that keeps a mirror of an array from its changesets, and notes every
/// changeset that does not bring the mirror to its `collection`, and every callback that
/// overlaps another.
private final class RelArrayMirror: Sendable {
    let mirror = Locked<[Int]>([])
    let received = Locked(0)
    let mismatches = LockedLog<String>()
    let overlaps = OverlapDetector()
    /// The kinds of edit received: "insert", "delete", "update", "move forward", "move back".
    let kinds = Locked<Set<String>>([])
    let cancellable: AnyCancellable

    init(_ array: ObservableArray<Int>) {
        let (mirror, received, mismatches, overlaps, kinds) = (mirror, received, mismatches, overlaps, kinds)
        cancellable = array.changes.sink { change in
            overlaps.watch(spins: 10) {
                received.withLock { $0 += 1 }
                kinds.withLock { kinds in
                    for edit in change.changes {
                        switch edit {
                        case .insert: kinds.insert("insert")
                        case .delete: kinds.insert("delete")
                        case .update: kinds.insert("update")
                        case .move(let from, let to): kinds.insert(from < to ? "move forward" : "move back")
                        }
                    }
                }
                if change.changes.isEmpty { mismatches.append("a changeset with no edits") }
                mirror.withLock { mirror in
                    mirror = mirror.applying(change)
                    if mirror != change.collection {
                        mismatches.append("\(change.changes) gave \(mirror), not \(change.collection)")
                    }
                }
            }
        }
    }
}

/// Random edits on an `[Int]`, drawn from `random`: the body of a `batchUpdates`, and
/// the reference's copy of it.
private func relRandomEdits(_ elements: inout [Int], count: Int, _ random: inout RelRandom) {
    for _ in 0..<count {
        switch random.below(6) {
        case 0: elements.append(random.below(10))
        case 1: elements.insert(random.below(10), at: random.below(elements.count + 1))
        case 2: if !elements.isEmpty { elements.remove(at: random.below(elements.count)) }
        case 3: if !elements.isEmpty { elements[random.below(elements.count)] = random.below(10) }
        case 4: if elements.count > 1 { elements.swapAt(random.below(elements.count), random.below(elements.count)) }
        default: elements.shuffle(using: &random)
        }
    }
}

/// Makes one random edit on `array` and the same on `reference`; returns what it did.
private func relRandomStep(_ array: ObservableArray<Int>, _ reference: inout [Int], _ random: inout RelRandom) -> String {
    let count = reference.count
    func values(_ limit: Int) -> [Int] { (0..<random.below(limit + 1)).map { _ in random.below(10) } }
    switch random.below(count > 24 ? 16 : 14) {
    case 0, 1:
        let value = random.below(10)
        array.append(value)
        reference.append(value)
        return "append(\(value))"
    case 2:
        let (value, index) = (random.below(10), random.below(count + 1))
        array.insert(value, at: index)
        reference.insert(value, at: index)
        return "insert(\(value), at: \(index))"
    case 3 where count > 0, 14, 15:
        guard count > 0 else { return "nothing" }
        let index = random.below(count)
        array.remove(at: index)
        reference.remove(at: index)
        return "remove(at: \(index))"
    case 4 where count > 0:
        let (value, index) = (random.below(10), random.below(count))
        array[index] = value
        reference[index] = value
        return "[\(index)] = \(value)"
    case 5:
        let lower = random.below(count + 1)
        let range = lower..<(lower + random.below(count - lower + 1))
        let new = values(3)
        array.replaceSubrange(range, with: new)
        reference.replaceSubrange(range, with: new)
        return "replaceSubrange(\(range), with: \(new))"
    case 6, 7:
        let seed = random.next()
        let edits = 2 + random.below(4)
        array.batchUpdates { elements in
            var batchRandom = RelRandom(seed: seed)
            relRandomEdits(&elements, count: edits, &batchRandom)
        }
        var batchRandom = RelRandom(seed: seed)
        relRandomEdits(&reference, count: edits, &batchRandom)
        return "batchUpdates(\(edits) edits, seed \(seed))"
    case 8:
        // A permutation: every change is a move.
        let new = reference.shuffled(using: &random)
        array.replace(with: new)
        reference = new
        return "replace(with: \(new)) (a permutation)"
    case 9:
        var new = reference.shuffled(using: &random)
        if !new.isEmpty { new[random.below(new.count)] = random.below(10) }
        new.insert(random.below(10), at: random.below(new.count + 1))
        if new.count > 1 { new.remove(at: random.below(new.count)) }
        array.replace(with: new)
        reference = new
        return "replace(with: \(new)) (a permutation, edited)"
    case 10:
        let new = values(12)
        array.replace(with: new)
        reference = new
        return "replace(with: \(new))"
    case 11:
        let remainder = random.below(3)
        array.removeAll { $0 % 3 == remainder }
        reference.removeAll { $0 % 3 == remainder }
        return "removeAll(where: % 3 == \(remainder))"
    case 12:
        let new = values(3)
        if random.chance(50) {
            array.append(contentsOf: new)
            reference.append(contentsOf: new)
            return "append(contentsOf: \(new))"
        }
        let index = random.below(count + 1)
        array.insert(contentsOf: new, at: index)
        reference.insert(contentsOf: new, at: index)
        return "insert(contentsOf: \(new), at: \(index))"
    default:
        guard count > 0 else {
            array.removeAll()
            return "removeAll() (empty)"
        }
        switch random.below(8) {
        case 0:
            let (i, j) = (random.below(count), random.below(count))
            array.swapAt(i, j)
            reference.swapAt(i, j)
            return "swapAt(\(i), \(j))"
        case 1:
            let lower = random.below(count)
            let range = lower..<(lower + random.below(count - lower + 1))
            array.removeSubrange(range)
            reference.removeSubrange(range)
            return "removeSubrange(\(range))"
        case 2:
            let k = random.below(count + 1)
            array.removeFirst(k)
            reference.removeFirst(k)
            return "removeFirst(\(k))"
        case 3:
            let k = random.below(count + 1)
            array.removeLast(k)
            reference.removeLast(k)
            return "removeLast(\(k))"
        case 4:
            _ = array.popLast()
            _ = reference.popLast()
            return "popLast()"
        case 5:
            array.sort()
            reference.sort()
            return "sort()"
        case 6:
            array.removeAll(keepingCapacity: random.chance(50))
            reference.removeAll()
            return "removeAll()"
        default:
            array += [count]
            reference += [count]
            return "+= [\(count)]"
        }
    }
}

@Suite("Reliability: ObservableArray against a reference array")
struct RelObservableArrayModelTests {
    /// One seed: 100 random edits, checked after each; returns the first failure.
    private static func run(seed: UInt64, kinds: inout Set<String>) -> String? {
        var random = RelRandom(seed: seed)
        let array = ObservableArray((0..<random.below(8)).map { _ in random.below(10) })
        var reference = array.elements
        let first = RelArrayMirror(array)
        var late: RelArrayMirror?
        let lateStep = random.below(100)
        // A subscriber with a demand of one at a time, asking for more now and then.
        let limited = TestRecorder<CollectionChange<Int>, Never>(initialDemand: .max(1))
        array.changes.subscribe(limited)
        for step in 0..<100 {
            if step == lateStep { late = RelArrayMirror(array) }
            let before = (first.received.value, reference)
            let what = relRandomStep(array, &reference, &random)
            let sent = first.received.value - before.0
            let context = "seed \(seed), step \(step), \(what), from \(before.1)"
            if sent > 1 { return "\(context): \(sent) changesets" }
            if sent == 0, reference != before.1 { return "\(context): no changeset" }
            if let mismatch = first.mismatches.items.first ?? late?.mismatches.items.first {
                return "\(context): \(mismatch)"
            }
            let elements = array.elements
            if elements != reference { return "\(context): the array is \(elements), not \(reference)" }
            if first.mirror.value != reference { return "\(context): the mirror is \(first.mirror.value)" }
            if let late, late.mirror.value != reference { return "\(context): the late mirror is \(late.mirror.value)" }
            if random.chance(30) { limited.request(.max(1)) }
        }
        kinds.formUnion(first.kinds.value)
        // What the limited subscriber received, merged or not, leads to the same array.
        limited.request(.unlimited)
        let limitedMirror = limited.values.reduce([Int]()) { $0.applying($1) }
        if limitedMirror != reference { return "seed \(seed): the limited subscriber's mirror is \(limitedMirror)" }
        if !limited.violations.isEmpty { return "seed \(seed): \(limited.violations)" }
        return nil
    }

    @Test func aMirrorOfEveryChangesetEqualsTheArrayAfterEveryRandomEdit() {
        var failures: [String] = []
        var kinds: Set<String> = []
        for seed in UInt64(1)...200 {
            if let failure = Self.run(seed: seed, kinds: &kinds) { failures.append(failure) }
        }
        #expect(kinds == ["insert", "delete", "update", "move forward", "move back"])
        // The first few only: one wrong edit usually breaks many seeds.
        #expect(failures.count == 0, "\(failures.count) seeds failed, first: \(failures.prefix(3))")
    }

    @Test func fourThreadsEditingAtOnceLeaveEveryMirrorEqualToTheArray() {
        let watchdog = RelWatchdog(seconds: 120, what: "four threads editing one ObservableArray")
        defer { watchdog.finish() }
        let deadline = RelDeadline(seconds: 10)
        var rounds = 0
        while rounds < 20, !deadline.passed {
            rounds += 1
            let array = ObservableArray<Int>([1, 2, 3])
            let mirrors = [RelArrayMirror(array), RelArrayMirror(array)]
            let late = LockedLog<RelArrayMirror>()
            let seed = UInt64(rounds)
            runConcurrently(threads: 5) { thread in
                guard thread < 4 else {
                    // Subscribers that join while the others edit.
                    for _ in 0..<3 {
                        for _ in 0..<100 { _ = array.count }
                        late.append(RelArrayMirror(array))
                    }
                    return
                }
                var random = RelRandom(seed: seed &* 31 &+ UInt64(thread))
                for _ in 0..<150 {
                    switch random.below(7) {
                    case 0: array.append(random.below(10))
                    case 1: array.insert(random.below(10), at: 0)
                    case 2: _ = array.popLast()
                    case 3: array.replace(with: array.elements.shuffled(using: &random))
                    case 4: array.removeAll { $0 == thread }
                    case 5: array += [thread, thread]
                    default:
                        let batchSeed = random.next()
                        array.batchUpdates { elements in
                            var batchRandom = RelRandom(seed: batchSeed)
                            relRandomEdits(&elements, count: 3, &batchRandom)
                            if elements.count > 40 { elements.removeFirst(20) }
                        }
                    }
                }
            }
            let final = array.elements
            let all = mirrors + late.items
            for (index, mirror) in all.enumerated() {
                #expect(mirror.mismatches.items.prefix(1) == [], "round \(rounds), mirror \(index)")
                #expect(mirror.mirror.value == final, "round \(rounds), mirror \(index)")
                #expect(mirror.overlaps.overlaps == 0, "round \(rounds), mirror \(index)")
            }
            #expect(mirrors[0].received.value == mirrors[1].received.value, "round \(rounds)")
        }
        RelEnvironment.report("ObservableArray, 4 editing threads: \(rounds) rounds of 600 edits")
    }
}
