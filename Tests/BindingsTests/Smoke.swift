import Testing
@testable import Bindings

@Suite struct SmokeTests {
    @Test func passthroughDeliversInOrderWithReentrancy() {
        let subject = PassthroughSubject<Int, Never>()
        var first: [Int] = []
        var second: [Int] = []
        let a = subject.sink { value in
            first.append(value)
            if value == 1 { subject.send(2) }
        }
        let b = subject.sink { second.append($0) }
        subject.send(1)
        #expect(first == [1, 2])
        #expect(second == [1, 2])
        withExtendedLifetime((a, b)) {}
    }

    @Test func currentValueSubjectReplaysCurrent() {
        let subject = CurrentValueSubject<String, Never>("a")
        var got: [String] = []
        let c = subject.sink { got.append($0) }
        subject.value = "b"
        c.cancel()
        subject.value = "c"
        #expect(got == ["a", "b"])
    }
}
