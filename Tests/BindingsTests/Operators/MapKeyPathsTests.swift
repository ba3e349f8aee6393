import BindingsTestSupport
import Testing
@testable import Bindings

private struct Person: Sendable {
    let name: String
    let age: Int
    let city: String
}

@Suite("Operators: map with two and three key paths")
struct OperatorsMapKeyPathsTests {
    @Test func publishesTheValuesAsTuples() {
        let people = [Person(name: "Ada", age: 36, city: "London"), Person(name: "Grace", age: 85, city: "Arlington")]
        let two = TestRecorder<(String, Int), Never>()
        let three = TestRecorder<(String, Int, String), Never>()
        people.publisher.map(\.name, \.age).subscribe(two)
        people.publisher.map(\.name, \.age, \.city).subscribe(three)
        #expect(two.events { "\($0.0) \($0.1)" } == [.value("Ada 36"), .value("Grace 85"), .finished])
        #expect(three.events { "\($0.0) \($0.1) \($0.2)" } == [.value("Ada 36 London"), .value("Grace 85 Arlington"), .finished])
    }

    @Test func passTheUpstreamSubscriptionThrough() {
        let upstream = TestPublisher<Person, TestError>()
        let recorder = TestRecorder<(String, Int), TestError>(initialDemand: .max(1), demandPerValue: .max(1))
        upstream.map(\.name, \.age).subscribe(recorder)
        #expect(upstream.send(Person(name: "Ada", age: 36, city: "London")) == .max(1))
        upstream.send(completion: .failure(.boom))
        #expect(recorder.events { $0.0 } == [.value("Ada"), .failure(.boom)])
        #expect(upstream.requests == [.max(1)])
    }

    @Test func theTypesAreCombines() {
        let subject = PassthroughSubject<Person, Never>()
        let two: Publishers.MapKeyPath2<PassthroughSubject<Person, Never>, String, Int> = subject.map(\.name, \.age)
        let three: Publishers.MapKeyPath3<PassthroughSubject<Person, Never>, String, Int, String> =
            subject.map(\.name, \.age, \.city)
        #expect(two.keyPath0 == \Person.name)
        #expect(three.keyPath2 == \Person.city)
    }
}
