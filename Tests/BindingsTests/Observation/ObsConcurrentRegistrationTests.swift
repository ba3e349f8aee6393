import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// SPEC section 6, "Concurrent observers": many threads may observe one model at once
// while nobody sets it (reading it is safe then). Each `.initial` value arrives before
// its `observe` returns, and the next set reaches every one of them. A property's channel
// is created by its first observer, so two first observers on two threads must end up
// sharing one channel; this runs that race many times.

/// A model observed from many threads at once.
final class ObsRaceModel: KeyValueObservable {
    @Observed var value = 0
    var doubled: Int { value * 2 }
}

/// What one iteration of a round made. `@unchecked Sendable`: its `var`s are written by
/// that one `concurrentPerform` iteration, and read after all of them are done.
private final class ObsRaceSlot: @unchecked Sendable {
    /// What the observation received.
    let record = LockedLog<Int>()
    var token: KeyValueObservation?
    var cancellable: AnyCancellable?
    var initialBeforeReturn = false
}

/// The slots of one round: a `let` array, never mutated, so that the iterations write
/// only their own slot's fields (writing elements of a shared array from several threads
/// would be overlapping accesses to the array).
private final class ObsRaceSlots: Sendable {
    let slots: [ObsRaceSlot]

    init(count: Int) {
        slots = (0..<count).map { _ in ObsRaceSlot() }
    }
}

@Suite("Observation: many threads observing one model at once")
struct ObsConcurrentRegistrationTests {
    /// The four ways to observe, taken in turn by the iterations.
    private static func observe(_ index: Int, _ model: ObsRaceModel, _ slots: ObsRaceSlots) {
        let slot = slots.slots[index]
        let record = slot.record
        switch index % 4 {
        case 0:
            slot.token = model.observe(\.value, options: [.initial, .new]) { _, change in
                record.append(change.newValue!)
            }
        case 1:
            slot.token = model.observe(\.doubled, options: [.initial, .new]) { _, change in
                record.append(change.newValue! / 2)
            }
        case 2:
            slot.cancellable = model.$value.sink { record.append($0) }
        default:
            slot.cancellable = model.publisher(for: \.value).sink { record.append($0) }
        }
        slot.initialBeforeReturn = record.items == [0]
    }

    /// One round: `count` observations from `concurrentPerform`, then one set.
    private static func round(count: Int) -> (lateInitials: Int, missed: [Int: [Int]]) {
        // Shared by the iterations, which only read the model (observing reads it); nobody
        // sets it while they run.
        let shared = UncheckedBox(ObsRaceModel())
        let slots = ObsRaceSlots(count: count)
        DispatchQueue.concurrentPerform(iterations: count) { index in
            observe(index, shared.value, slots)
        }
        shared.value.value = 1
        var missed: [Int: [Int]] = [:]
        for index in 0..<count where slots.slots[index].record.items != [0, 1] {
            missed[index] = slots.slots[index].record.items
        }
        withExtendedLifetime(slots) {}
        return (slots.slots.filter { !$0.initialBeforeReturn }.count, missed)
    }

    @Test func everyInitialValueArrivesBeforeObserveReturnsAndTheNextSetReachesEveryone() {
        // 2,000 observations at once, as a user's first try would; then many smaller
        // rounds, where each round's first observers race to create the channels.
        let (lateInitials, missed) = Self.round(count: 2_000)
        #expect(lateInitials == 0, "observations whose initial value arrived after observe returned")
        #expect(missed.isEmpty, "observations that did not receive exactly [0, 1]: \(missed.prefix(5))")
    }

    @Test func firstObserversOnSeveralThreadsShareOneChannel() {
        var failures: [String] = []
        for roundNumber in 0..<100 {
            let (lateInitials, missed) = Self.round(count: 64)
            if lateInitials != 0 || !missed.isEmpty {
                failures.append("round \(roundNumber): \(lateInitials) late initial values, missed \(missed.prefix(3))")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
