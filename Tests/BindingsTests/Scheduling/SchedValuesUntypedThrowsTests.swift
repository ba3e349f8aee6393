import BindingsTestSupport
import Testing
import Bindings

/// Collects the elements of any asynchronous sequence: a generic `rethrows` function, the
/// shape that made the compiler crash while the iterator's `next()` threw a typed error.
private func collect<S: AsyncSequence>(_ sequence: S, upTo limit: Int) async rethrows -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence {
        elements.append(element)
        if elements.count == limit { break }
    }
    return elements
}

@Suite("values: the throwing iterator throws untyped, as Combine's")
struct SchedValuesUntypedThrowsTests {
    @Test func declaresAnyErrorAsItsFailure() {
        #expect(AsyncThrowingPublisher<Fail<Int, TestError>>.Failure.self == (any Error).self)
        #expect(AsyncThrowingPublisher<Fail<Int, TestError>>.Iterator.Failure.self == (any Error).self)
    }

    @Test func aGenericRethrowingConsumerGetsTheValuesThenThePublishersFailure() async throws {
        let failing = [1, 2].publisher.setFailureType(to: TestError.self).append(Fail(error: .boom))
        var thrown: (any Error)?
        do {
            _ = try await collect(failing.values, upTo: 10)
        } catch {
            thrown = error
        }
        #expect(thrown as? TestError == .boom)
        #expect(try await collect([1, 2, 3].publisher.setFailureType(to: TestError.self).values, upTo: 2) == [1, 2])
    }

    @Test func theNeverFailingSequenceNeedsNoTry() async {
        #expect(await collect([4, 5].publisher.values, upTo: 10) == [4, 5])
    }
}
