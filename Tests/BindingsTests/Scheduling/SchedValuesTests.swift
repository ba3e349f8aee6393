import BindingsTestSupport
import Testing
@testable import Bindings

@Suite("values: AsyncPublisher and AsyncThrowingPublisher")
struct SchedValuesTests {
    @Test func endsWhenThePublisherFinishes() async {
        var collected: [Int] = []
        for await value in Just(5).values { collected.append(value) }
        #expect(collected == [5])

        collected = []
        for await value in Empty<Int, Never>().values { collected.append(value) }
        #expect(collected == [])
    }

    @Test func requestsOneValuePerNextAndEndsOnCompletion() async {
        let upstream = TestPublisher<Int, Never>()
        let consumer = Task {
            var collected: [Int] = []
            for await value in upstream.values { collected.append(value) }
            return collected
        }
        await upstream.waitForLog(count: 2)
        #expect(upstream.log == [.subscribed, .request(.max(1))])
        upstream.send(1)
        await upstream.waitForLog(count: 3)
        upstream.send(2)
        await upstream.waitForLog(count: 4)
        upstream.send(3)
        await upstream.waitForLog(count: 5)
        upstream.send(completion: .finished)
        #expect(await consumer.value == [1, 2, 3])
        #expect(upstream.log == [.subscribed] + Array(repeating: .request(.max(1)), count: 4))
    }

    @Test func severalTasksWaitingAtOnceEachAskForOneValueAndGetThemInTurn() async {
        // As in Combine: copies of one iterator, used by several tasks at once.
        let upstream = TestPublisher<Int, Never>()
        // Shared by the tasks: the subscriber behind its copies is what is under test.
        let iterator = UncheckedBox(upstream.values.makeAsyncIterator())
        let first = Task {
            var mine = iterator.value
            return await mine.next()
        }
        await upstream.waitForLog(count: 2)
        let second = Task {
            var mine = iterator.value
            return await mine.next()
        }
        await upstream.waitForLog(count: 3)
        let third = Task {
            var mine = iterator.value
            return await mine.next()
        }
        await upstream.waitForLog(count: 4)
        #expect(upstream.log == [.subscribed, .request(.max(1)), .request(.max(1)), .request(.max(1))])
        _ = upstream.send(1)
        _ = upstream.send(2)
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        // The end reaches the task still waiting.
        upstream.send(completion: .finished)
        #expect(await third.value == nil)
    }

    @Test func aFailureGoesToTheFirstTaskWaitingAndTheEndToTheOthers() async {
        let upstream = TestPublisher<Int, TestError>()
        let iterator = UncheckedBox(upstream.values.makeAsyncIterator())
        let first = Task { () -> Swift.Result<Int?, any Error> in
            var mine = iterator.value
            do { return .success(try await mine.next()) } catch { return .failure(error) }
        }
        await upstream.waitForLog(count: 2)
        let second = Task { () -> Swift.Result<Int?, any Error> in
            var mine = iterator.value
            do { return .success(try await mine.next()) } catch { return .failure(error) }
        }
        await upstream.waitForLog(count: 3)
        upstream.send(completion: .failure(.boom))
        let firstResult = await first.value
        let secondResult = await second.value
        #expect(throws: TestError.boom) { try firstResult.get() }
        #expect((try? secondResult.get()) == .some(nil))
    }

    @Test func aNextBeforeTheSubscriptionIsRequestedWhenItArrives() async {
        let upstream = TestPublisher<String, Never>(subscribesAtOnce: false)
        let subscriber = ValuesSubscriber<String, Never>()
        upstream.subscribe(subscriber)
        let delivery = await withUnsafeContinuation { continuation in
            subscriber.next(continuation)        // waits: there is no subscription yet
            #expect(upstream.log == [])
            upstream.attach()                    // the owed demand goes out with it
            #expect(upstream.log == [.subscribed, .request(.max(1))])
            upstream.send("a")
        }
        #expect(delivery.result.get() == "a")
    }

    @Test func throwsTheFailureAfterTheValuesThenEnds() async {
        let upstream = TestPublisher<Int, TestError>()
        let consumer = Task { () -> ([Int], (any Error)?) in
            var collected: [Int] = []
            do {
                for try await value in upstream.values { collected.append(value) }
                return (collected, nil)
            } catch {
                return (collected, error)
            }
        }
        await upstream.waitForLog(count: 2)
        upstream.send(1)
        await upstream.waitForLog(count: 3)
        upstream.send(completion: .failure(.boom))
        let (collected, failure) = await consumer.value
        #expect(collected == [1])
        #expect(failure as? TestError == .boom)
    }

    @Test func throwsOnceThenReturnsNil() async throws {
        var iterator = Fail<Int, TestError>(error: .boom).values.makeAsyncIterator()
        var thrown: TestError?
        do { _ = try await iterator.next() } catch { thrown = error as? TestError }
        #expect(thrown == .boom)
        #expect(try await iterator.next() == nil)
    }

    @Test func throwingSequenceEndsOnFinished() async throws {
        let subject = CurrentValueSubject<Int, TestError>(7)
        var iterator = subject.values.makeAsyncIterator()
        #expect(try await iterator.next() == 7)
        subject.send(completion: .finished)
        #expect(try await iterator.next() == nil)
    }

    @Test func cancellingTheConsumingTaskEndsTheSequenceAndCancelsUpstream() async {
        let upstream = TestPublisher<Int, Never>()
        let consumer = Task {
            var collected: [Int] = []
            for await value in upstream.values { collected.append(value) }
            return collected
        }
        await upstream.waitForLog(count: 2)
        upstream.send(1)
        await upstream.waitForLog(count: 3)      // the consumer waits for its second value
        consumer.cancel()
        #expect(await consumer.value == [1])
        #expect(upstream.log == [.subscribed, .request(.max(1)), .request(.max(1)), .cancel])
        #expect(upstream.send(2) == .none)
    }

    @Test func cancellingTheThrowingConsumerEndsWithoutAnError() async {
        let upstream = TestPublisher<Int, TestError>()
        let consumer = Task { () -> ([Int], (any Error)?) in
            var collected: [Int] = []
            do {
                for try await value in upstream.values { collected.append(value) }
                return (collected, nil)
            } catch {
                return (collected, error)
            }
        }
        await upstream.waitForLog(count: 2)
        consumer.cancel()
        let (collected, failure) = await consumer.value
        #expect(collected == [])
        #expect(failure == nil)
        #expect(upstream.log == [.subscribed, .request(.max(1)), .cancel])
    }

    @Test func anAlreadyCancelledTaskGetsNilAndCancelsUpstream() async {
        let upstream = TestPublisher<Int, Never>()
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var collected: [Int] = []
            for await value in upstream.values { collected.append(value) }
            return collected
        }
        #expect(await consumer.value == [])
        #expect(upstream.log == [.subscribed, .cancel])
    }

    @Test func leavingTheLoopCancelsTheSubscription() async {
        let upstream = TestPublisher<Int, Never>()
        let consumer = Task {
            var collected: [Int] = []
            for await value in upstream.values {
                collected.append(value)
                break
            }
            return collected
        }
        await upstream.waitForLog(count: 2)
        upstream.send(1)
        #expect(await consumer.value == [1])
        #expect(upstream.log == [.subscribed, .request(.max(1)), .cancel])
    }

    @Test @MainActor func mainActorConsumerIteratesWithoutLeavingTheActor() async {
        let subject = CurrentValueSubject<Int, Never>(1)
        var collected: [Int] = []
        for await value in subject.values {
            MainActor.assertIsolated()
            collected.append(value)
            if value == 1 { subject.send(2) } else { break }
        }
        #expect(collected == [1, 2])
    }
}
