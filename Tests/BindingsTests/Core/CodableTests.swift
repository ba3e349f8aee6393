import Bindings
import BindingsTestSupport
import Foundation
import Testing

// `Subscribers.Completion` and `Subscribers.Demand` are `Codable` in Combine's shapes.

private struct CodedError: Error, Codable, Equatable {
    let code: Int
}

@Suite("Core: Completion and Demand are Codable")
struct CodableTests {
    private func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func roundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test func completionEncodesAsCombineDoes() throws {
        #expect(try json(Subscribers.Completion<CodedError>.finished) == #"{"success":true}"#)
        #expect(try json(Subscribers.Completion<CodedError>.failure(CodedError(code: 7))) == #"{"error":{"code":7},"success":false}"#)
        #expect(try roundTrip(Subscribers.Completion<CodedError>.finished) == .finished)
        #expect(try roundTrip(Subscribers.Completion<CodedError>.failure(CodedError(code: 7))) == .failure(CodedError(code: 7)))
    }

    @Test func demandEncodesAsOneNumber() throws {
        #expect(try json(Subscribers.Demand.max(3)) == "3")
        #expect(try json(Subscribers.Demand.none) == "0")
        #expect(try json(Subscribers.Demand.unlimited) == "\(UInt(Int.max) + 1)")
        #expect(try roundTrip(Subscribers.Demand.max(3)) == .max(3))
        #expect(try roundTrip(Subscribers.Demand.unlimited) == .unlimited)
        #expect(try roundTrip(Subscribers.Demand.max(Int.max)) == .max(Int.max))
    }
}
