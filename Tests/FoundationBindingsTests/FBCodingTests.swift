import BindingsTestSupport
import Foundation
import FoundationBindings
import Testing

private struct Order: Codable, Equatable, Sendable {
    let id: Int
    let item: String
}

/// A value whose encoding fails.
private struct Unencodable: Encodable {
    func encode(to encoder: any Encoder) throws {
        throw TestError.boom
    }
}

@Suite("FoundationBindings: encode(encoder:) and decode(type:decoder:) with Foundation's coders")
struct FBCodingTests {
    @Test func jsonRoundTrip() {
        let orders = [Order(id: 1, item: "tea"), Order(id: 2, item: "cake")]
        let recorder = TestRecorder<Order, any Error>()
        let encoded: Publishers.Encode<Publishers.Sequence<[Order], Never>, JSONEncoder> =
            orders.publisher.encode(encoder: JSONEncoder())
        let decoded: Publishers.Decode<Publishers.Encode<Publishers.Sequence<[Order], Never>, JSONEncoder>, Order, JSONDecoder> =
            encoded.decode(type: Order.self, decoder: JSONDecoder())
        decoded.subscribe(recorder)
        #expect(recorder.values == orders)
        #expect(recorder.events.count == 3)
        #expect(recorder.events.last.map { "\($0)" } == "finished")
    }

    @Test func propertyListRoundTrip() {
        let recorder = TestRecorder<Order, any Error>()
        Just(Order(id: 7, item: "bread"))
            .encode(encoder: PropertyListEncoder())
            .decode(type: Order.self, decoder: PropertyListDecoder())
            .subscribe(recorder)
        #expect(recorder.values == [Order(id: 7, item: "bread")])
    }

    @Test func aDecodingErrorCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Data, Never>()
        let recorder = TestRecorder<Order, any Error>()
        upstream.decode(type: Order.self, decoder: JSONDecoder()).subscribe(recorder)
        upstream.send(Data(#"{"id": 1, "item": "tea"}"#.utf8))
        upstream.send(Data("not json".utf8))
        upstream.send(Data(#"{"id": 2, "item": "cake"}"#.utf8))
        #expect(recorder.values == [Order(id: 1, item: "tea")])
        #expect(recorder.events.count == 2)
        if case .failure(let error) = recorder.events.last {
            #expect(error is DecodingError)
        } else {
            Issue.record("expected a failure, got \(recorder.events)")
        }
        #expect(upstream.log == [.subscribed, .request(.unlimited), .cancel])
    }

    @Test func anEncodingErrorCancelsUpstreamAndFails() {
        let upstream = TestPublisher<Unencodable, Never>()
        let recorder = TestRecorder<Data, any Error>()
        upstream.encode(encoder: JSONEncoder()).subscribe(recorder)
        upstream.send(Unencodable())
        #expect(recorder.testErrorEvents == [.failure(.boom)])
        #expect(upstream.cancelCount == 1)
    }

    @Test func demandGoesStraightUpstream() {
        let upstream = TestPublisher<Order, TestError>()
        let recorder = TestRecorder<Data, any Error>(initialDemand: .max(1), demandPerValue: .max(2))
        upstream.encode(encoder: JSONEncoder()).subscribe(recorder)
        #expect(upstream.send(Order(id: 1, item: "tea")) == .max(2))
        upstream.send(completion: .failure(.other))
        #expect(upstream.requests == [.max(1)])
        #expect(recorder.events.count == 2)
        #expect(recorder.testErrorEvents.last == .failure(.other))
    }

    @Test func subscriptionsAreNamedAsCombineNamesThem() {
        let recorder = TestRecorder<Data, any Error>(initialDemand: .none)
        PassthroughSubject<Order, Never>().encode(encoder: JSONEncoder()).subscribe(recorder)
        #expect(recorder.subscription.map { String(describing: $0) } == "Encode")
        recorder.cancel()
        let decoding = TestRecorder<Order, any Error>(initialDemand: .none)
        PassthroughSubject<Data, Never>().decode(type: Order.self, decoder: JSONDecoder()).subscribe(decoding)
        #expect(decoding.subscription.map { String(describing: $0) } == "Decode")
        decoding.cancel()
    }
}

extension TestRecorder where Failure == any Error {
    /// The events received so far, with each failure cast back to the `TestError` it is
    /// (any other error becomes `TestError(-1)`, which no test throws).
    fileprivate var testErrorEvents: [RecordedEvent<Input, TestError>] {
        events.map { event in
            switch event {
            case .subscription: .subscription
            case .value(let value): .value(value)
            case .finished: .finished
            case .failure(let error): .failure(error as? TestError ?? TestError(-1))
            }
        }
    }
}
