import BindingsTestSupport
import Testing
@testable import Bindings

private typealias Demand = Subscribers.Demand

@Suite struct CoreDemandTests {
    @Test func maxRoundTripsAndUnlimitedHasNoMax() {
        #expect(Demand.max(0).max == 0)
        #expect(Demand.max(7).max == 7)
        #expect(Demand.max(Int.max).max == Int.max)
        #expect(Demand.none.max == 0)
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(0) == .none)
        #expect(Demand.max(Int.max) != .unlimited)
    }

    @Test func description() {
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.none.description == "max(0)")
        #expect(Demand.max(3).description == "max(3)")
        #expect("\(Demand.max(Int.max))" == "max(\(Int.max))")
    }

    @Test func addition() {
        #expect(Demand.max(1) + .max(2) == .max(3))
        #expect(Demand.none + .none == .none)
        #expect(Demand.unlimited + .max(1) == .unlimited)
        #expect(Demand.max(1) + .unlimited == .unlimited)
        #expect(Demand.unlimited + .unlimited == .unlimited)
        // Finite demand saturates into unlimited past Int.max, as in Combine.
        #expect(Demand.max(Int.max - 1) + .max(1) == .max(Int.max))
        #expect(Demand.max(Int.max) + .max(1) == .unlimited)
        #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
        #expect((Demand.max(Int.max) + .max(Int.max)).max == nil)
    }

    @Test func additionOfInt() {
        #expect(Demand.max(1) + 2 == .max(3))
        #expect(Demand.none + 0 == .none)
        #expect(Demand.unlimited + 1 == .unlimited)
        #expect(Demand.unlimited + -1 == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(Int.max - 2) + 2 == .max(Int.max))
        // Adding a negative number subtracts, never going below zero.
        #expect(Demand.max(3) + -1 == .max(2))
        #expect(Demand.max(3) + -5 == .none)
        #expect(Demand.max(3) + Int.min == .none)
    }

    @Test func subtraction() {
        #expect(Demand.max(3) - .max(1) == .max(2))
        #expect(Demand.max(3) - .max(3) == .none)
        #expect(Demand.max(1) - .max(3) == .none)
        #expect(Demand.unlimited - .max(5) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(5) - .unlimited == .none)
        #expect(Demand.none - .unlimited == .none)
    }

    @Test func subtractionOfInt() {
        #expect(Demand.max(3) - 1 == .max(2))
        #expect(Demand.max(2) - 5 == .none)
        #expect(Demand.unlimited - 1 == .unlimited)
        #expect(Demand.unlimited - Int.max == .unlimited)
        #expect(Demand.max(2) - -1 == .max(3))
        #expect(Demand.max(Int.max) - -1 == .unlimited)
        #expect(Demand.max(1) - Int.min == .unlimited)
        #expect(Demand.none - Int.max == .none)
    }

    @Test func multiplication() {
        #expect(Demand.max(3) * 2 == .max(6))
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.none * 5 == .none)
        #expect(Demand.unlimited * 2 == .unlimited)
        #expect(Demand.unlimited * 0 == .unlimited)
        #expect(Demand.max(Int.max) * 1 == .max(Int.max))
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(Int.max) * Int.max == .unlimited)
    }

    @Test func compoundAssignment() {
        var demand = Demand.max(2)
        demand += .max(3)
        #expect(demand == .max(5))
        demand += 1
        #expect(demand == .max(6))
        demand -= .max(2)
        #expect(demand == .max(4))
        demand -= 1
        #expect(demand == .max(3))
        demand *= 3
        #expect(demand == .max(9))
        demand -= 100
        #expect(demand == .none)
        demand += .unlimited
        #expect(demand == .unlimited)
        demand -= 1
        #expect(demand == .unlimited)
        demand -= .unlimited
        #expect(demand == .unlimited)
    }

    @Test func comparisonBetweenDemands() {
        #expect(Demand.none < .max(1))
        #expect(Demand.max(1) < .max(2))
        #expect(Demand.max(Int.max) < .unlimited)
        #expect(!(Demand.unlimited < .unlimited))
        #expect(Demand.unlimited > .max(Int.max))
        #expect(Demand.unlimited >= .unlimited)
        #expect(Demand.max(2) <= .max(2))
        #expect(!(Demand.max(3) <= .max(2)))
        #expect([Demand.unlimited, .max(3), .none, .max(1)].sorted() == [.none, .max(1), .max(3), .unlimited])
    }

    @Test func comparisonWithIntOnTheRight() {
        #expect(Demand.max(1) == 1)
        #expect(!(Demand.max(1) == 2))
        #expect(Demand.max(1) != 2)
        #expect(Demand.none == 0)
        #expect(!(Demand.none == -1))
        #expect(!(Demand.unlimited == Int.max))
        #expect(Demand.unlimited != Int.max)

        #expect(Demand.max(1) < 2)
        #expect(!(Demand.max(2) < 2))
        #expect(!(Demand.none < 0))
        #expect(!(Demand.none < -1))
        #expect(!(Demand.unlimited < Int.max))

        #expect(Demand.max(3) > 2)
        #expect(!(Demand.max(2) > 2))
        #expect(Demand.none > -1)
        #expect(Demand.unlimited > Int.max)

        #expect(Demand.max(2) <= 2)
        #expect(Demand.max(2) <= 3)
        #expect(!(Demand.max(2) <= 1))
        #expect(!(Demand.none <= -1))
        #expect(!(Demand.unlimited <= Int.max))

        #expect(Demand.max(2) >= 2)
        #expect(!(Demand.max(2) >= 3))
        #expect(Demand.none >= 0)
        #expect(Demand.none >= -5)
        #expect(Demand.unlimited >= Int.max)
    }

    @Test func comparisonWithIntOnTheLeft() {
        #expect(3 == Demand.max(3))
        #expect(!(3 == Demand.max(4)))
        #expect(3 != Demand.unlimited)
        #expect(!(Int.max == Demand.unlimited))

        #expect(1 < Demand.max(2))
        #expect(!(2 < Demand.max(2)))
        #expect(Int.max < Demand.unlimited)
        #expect(-1 < Demand.none)

        #expect(3 > Demand.max(2))
        #expect(!(2 > Demand.max(2)))
        #expect(!(Int.max > Demand.unlimited))
        #expect(!(0 > Demand.none))

        #expect(2 <= Demand.max(2))
        #expect(!(3 <= Demand.max(2)))
        #expect(Int.max <= Demand.unlimited)
        #expect(0 <= Demand.none)

        #expect(2 >= Demand.max(2))
        #expect(!(1 >= Demand.max(2)))
        #expect(!(Int.max >= Demand.unlimited))
        #expect(0 >= Demand.none)
    }

    @Test func hashableByCount() {
        let set: Set<Demand> = [.max(1), .max(1), .none, .max(0), .unlimited, .unlimited]
        #expect(set == [.max(1), .none, .unlimited])
    }

    @Test func negativeMaxStopsTheProgramNamingTheMistake() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let count = Int(CommandLine.arguments.count > 1_000_000 ? 1 : -1)
            _ = Subscribers.Demand.max(count)
        }
        let message = standardError(of: result)
        #expect(message.contains("negative"))
        #expect(message.contains("max(-1)"))
    }

    @Test func multiplyingByANegativeNumberStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let factor = CommandLine.arguments.count > 1_000_000 ? 1 : -2
            _ = Subscribers.Demand.max(3) * factor
        }
        let message = standardError(of: result)
        #expect(message.contains("negative"))
    }

    @Test func zeroRequestOnAPassthroughSubscriptionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            subject.subscribe(recorder)
            recorder.request(.none)
        }
        let message = standardError(of: result)
        #expect(message.contains("demand of zero"))
    }

    @Test func zeroRequestOnACurrentValueSubscriptionStopsTheProgram() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subject = CurrentValueSubject<Int, Never>(1)
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            subject.subscribe(recorder)
            recorder.request(.max(0))
        }
        let message = standardError(of: result)
        #expect(message.contains("demand of zero"))
    }

    @Test func zeroRequestOnADropFirstSubscriptionStopsTheProgram() async {
        // As in Combine, where `dropFirst` traps on it (other pass-through operators let
        // it through to their upstream).
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            PassthroughSubject<Int, Never>().dropFirst().subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: result).contains("demand of zero"))
    }

    @Test func zeroRequestOnJustAndEmptySubscriptionsStopsTheProgram() async {
        let just = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            Just(1).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: just).contains("demand of zero"))
        let empty = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            Empty<Int, Never>(completeImmediately: false).subscribe(recorder)
            recorder.request(.none)
        }
        #expect(standardError(of: empty).contains("demand of zero"))
    }

    @Test func positiveRequestDoesNotStopTheProgram() async {
        await #expect(processExitsWith: .success) {
            let subject = PassthroughSubject<Int, Never>()
            let recorder = TestRecorder<Int, Never>(initialDemand: .none, recordsSubscription: true)
            subject.subscribe(recorder)
            recorder.request(.max(1))
            _ = Subscribers.Demand.max(0)
        }
    }
}
