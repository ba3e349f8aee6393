import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

@Suite("Observation: publisher(for:), $property")
struct ObsPublisherTests {
    @Test func publisherDefaultsToInitialAndNew() {
        let person = ObsPerson()
        let publisher = person.publisher(for: \.firstName)
        #expect(publisher.options == [.initial, .new])
        #expect(publisher.keyPath == \ObsPerson.firstName)
        #expect(publisher.object === person)
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.value("Ada")])
        person.firstName = "Grace"
        person.firstName = "Grace"
        #expect(recorder.events == [.value("Ada"), .value("Grace"), .value("Grace")])
        recorder.cancel()
        person.firstName = "Mary"
        #expect(recorder.events == [.value("Ada"), .value("Grace"), .value("Grace")])
    }

    @Test func publisherWithoutInitialStartsAtTheNextChange() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.firstName, options: [.new]).subscribe(recorder)
        #expect(recorder.events == [])
        person.firstName = "Grace"
        #expect(recorder.events == [.value("Grace")])
        recorder.cancel()
    }

    @Test func publisherWithPriorEmitsTheOldValueBeforeEachChange() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.firstName, options: [.initial, .prior, .new]).subscribe(recorder)
        person.firstName = "Grace"
        person.firstName = "Mary"
        #expect(recorder.events == [.value("Ada"), .value("Ada"), .value("Grace"), .value("Grace"), .value("Mary")])
        recorder.cancel()
    }

    @Test func computedPublisherWithPrior() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.fullName, options: [.prior, .new]).subscribe(recorder)
        person.lastName = "Byron"
        person.firstName = "Lady"
        #expect(recorder.events == [
            .value("Ada Lovelace"), .value("Ada Byron"), .value("Ada Byron"), .value("Lady Byron"),
        ])
        recorder.cancel()
    }

    @Test func publisherForChainResubscribes() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.publisher(for: \.address.city).subscribe(recorder)
        person.address.city = "Paris"
        person.address = ObsAddress()
        #expect(recorder.events == [.value("London"), .value("Paris"), .value("London")])
        recorder.cancel()
    }

    @Test func publisherHonoursDemandAndDropsWhatArrivesWithout() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(initialDemand: .max(1), releasesSubscription: .onCompletion)
        person.publisher(for: \.firstName).subscribe(recorder)
        person.firstName = "Grace"         // no demand: dropped, as Combine's KVO publisher
        #expect(recorder.events == [.value("Ada")])
        recorder.request(.max(2))
        person.firstName = "Mary"
        person.firstName = "Ann"
        person.firstName = "Bea"           // demand used up
        #expect(recorder.events == [.value("Ada"), .value("Mary"), .value("Ann")])
        recorder.request(.unlimited)
        person.firstName = "Cy"
        #expect(recorder.events == [.value("Ada"), .value("Mary"), .value("Ann"), .value("Cy")])
        recorder.cancel()
    }

    @Test func subscriptionWithNoDemandDeliversNothing() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(initialDemand: .none, releasesSubscription: .onCompletion)
        person.publisher(for: \.firstName).subscribe(recorder)
        person.firstName = "Grace"
        #expect(recorder.events == [])
        recorder.request(.max(1))          // registers now: the current value
        #expect(recorder.events == [.value("Grace")])
        recorder.cancel()
    }

    @Test func projectionPublishesCurrentThenEveryNewValue() {
        let person = ObsPerson()
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        person.$firstName.subscribe(recorder)
        var viaSink: [String] = []
        let c = person.$firstName.sink { viaSink.append($0) }
        person.firstName = "Grace"
        person.firstName = "Grace"
        c.cancel()
        person.firstName = "Mary"
        #expect(viaSink == ["Ada", "Grace", "Grace"])
        #expect(recorder.events == [.value("Ada"), .value("Grace"), .value("Grace"), .value("Mary")])
        recorder.cancel()
    }

    @Test func projectionThenObserveShareOneChannel() {
        let person = ObsPerson()
        var viaSink: [String] = []
        let c = person.$firstName.sink { viaSink.append($0) }   // channel made from the storage key path
        var changes: [String] = []
        let token = person.observe(\.firstName, options: [.new]) { _, change in changes.append(change.newValue!) }
        person.firstName = "Grace"
        #expect(person.firstNameStorage.observerCount == 2, "one channel for both")
        #expect(viaSink == ["Ada", "Grace"])
        #expect(changes == ["Grace"])
        withExtendedLifetime((c, token)) {}
    }

    @Test func projectionThroughOperators() {
        let person = ObsPerson()
        var seen: [Int] = []
        let c = person.$firstName.map(\.count).removeDuplicates().sink { seen.append($0) }
        person.firstName = "Bob"           // 3 == 3: removed
        person.firstName = "Grace"
        #expect(seen == [3, 5])
        withExtendedLifetime(c) {}
    }

    @Test func publishersAreEqualForTheSameObjectKeyPathAndOptions() {
        let person = ObsPerson()
        #expect(person.publisher(for: \.firstName) == person.publisher(for: \.firstName))
        #expect(person.publisher(for: \.firstName) != person.publisher(for: \.lastName))
        #expect(person.publisher(for: \.firstName) != person.publisher(for: \.firstName, options: [.new]))
        #expect(person.publisher(for: \.firstName) != ObsPerson().publisher(for: \.firstName))
    }

    @Test func publisherOfAGoneModelFinishesAtOnce() {
        var person: ObsPerson? = ObsPerson()
        let publisher = person!.publisher(for: \.firstName)
        person = nil
        #expect(publisher.object == nil)
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        publisher.subscribe(recorder)
        #expect(recorder.events == [.finished])
    }
}

@Suite("Observation: ObservableValue")
struct ObsObservableValueTests {
    @Test func valueAndUpdate() {
        let title = ObservableValue("Title")
        #expect(title.value == "Title")
        title.update("New")
        #expect(title.value == "New")
        title.value = "Newer"
        #expect(title.value == "Newer")
    }

    @Test func publishesCurrentThenEveryUpdate() {
        let title = ObservableValue("Title")
        let recorder = TestRecorder<String, Never>(releasesSubscription: .onCompletion)
        title.subscribe(recorder)
        var viaSink: [String] = []
        let c = title.sink { viaSink.append($0) }
        title.update("A")
        title.update("A")
        title.value = "B"
        c.cancel()
        title.update("C")
        #expect(viaSink == ["Title", "A", "A", "B"])
        #expect(recorder.events == [.value("Title"), .value("A"), .value("A"), .value("B"), .value("C")])
        recorder.cancel()
    }

    @Test func optionalValueDeliversNil() {
        let value = ObservableValue<Int?>(nil)
        let recorder = TestRecorder<Int?, Never>(releasesSubscription: .onCompletion)
        value.subscribe(recorder)
        value.update(1)
        value.update(nil)
        #expect(recorder.events == [.value(nil), .value(1), .value(nil)])
        recorder.cancel()
    }

    @Test func updateFromInsideACallbackIsDeliveredInOrder() {
        let value = ObservableValue(0)
        let first = LockedLog<Int>()
        let second = LockedLog<Int>()
        let c1 = value.sink { v in
            first.append(v)
            if v == 1 { value.update(2) }
        }
        let c2 = value.sink { second.append($0) }
        value.update(1)
        #expect(first.items == [0, 1, 2])
        #expect(second.items == [0, 1, 2])
        withExtendedLifetime((c1, c2)) {}
    }

    @Test func updatesFromFourThreadsAtOnce() {
        let value = ObservableValue(0)
        let perThread = 2_000
        let logs = (0..<3).map { _ in LockedLog<Int>() }
        let cancellables = logs.map { log in value.sink { log.append($0) } }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 1...perThread { value.update(thread * perThread + i) }
        }
        let final = value.value
        for log in logs {
            #expect(log.count == 1 + 4 * perThread)
            #expect(log.last == final)
            #expect(log.items.first == 0)
            // Each thread's values arrive in the order that thread stored them.
            for thread in 0..<4 {
                let mine = log.items.filter { $0 > thread * perThread && $0 <= (thread + 1) * perThread }
                #expect(mine == Array(thread * perThread + 1...(thread + 1) * perThread))
            }
        }
        // Every subscriber saw the same order.
        #expect(logs[0].items == logs[1].items)
        #expect(logs[1].items == logs[2].items)
        withExtendedLifetime(cancellables) {}
    }

    @Test func subscribingWhileOtherThreadsUpdateNeverEndsStale() {
        let value = ObservableValue(0)
        let logs = (0..<8).map { _ in LockedLog<Int>() }
        let holder = LockedLog<AnyCancellable>()
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            if thread < 2 {
                for i in 1...1_000 { value.update(thread * 1_000 + i) }
            } else {
                for index in (thread - 2) * 4..<(thread - 1) * 4 {
                    let log = logs[index]
                    holder.append(value.sink { log.append($0) })
                }
            }
        }
        let final = value.value
        for log in logs { #expect(log.last == final) }
        withExtendedLifetime(holder) {}
    }

    /// The interleaving that the test above finds by chance, made on purpose: a new
    /// subscriber reads its initial value while another thread delivers, a new value is
    /// sent and delivered before the subscriber joins, and the delivery is still under
    /// way when it joins. It must catch up with the value it missed.
    @Test func aSubscriberThatJoinsAfterAValueItMissedCatchesUp() {
        let value = ObservableValue(0)
        let seen = LockedLog<Int>()
        let delivering = DispatchSemaphore(value: 0), resumeDelivery = DispatchSemaphore(value: 0)
        let initialRead = DispatchSemaphore(value: 0), resumeInitial = DispatchSemaphore(value: 0)
        let subscribed = DispatchSemaphore(value: 0), updated = DispatchSemaphore(value: 0)
        // Blocks the delivering thread in each delivery of 1 and 2.
        let first = value.sink { received in
            if received > 0 {
                delivering.signal()
                resumeDelivery.wait()
            }
        }
        let holder = LockedLog<AnyCancellable>()
        DispatchQueue.global().async {
            value.update(1)                                  // delivers, holding the delivery
            updated.signal()
        }
        delivering.wait()                                    // 1 is being delivered
        DispatchQueue.global().async {
            holder.append(value.sink { received in           // reads 1 while 1 is delivered
                seen.append(received)
                if seen.count == 1 {
                    initialRead.signal()
                    resumeInitial.wait()
                }
            })
            subscribed.signal()
        }
        initialRead.wait()
        value.update(2)                                      // queued behind the delivery of 1
        resumeDelivery.signal()                              // 1 done; 2 is delivered next...
        delivering.wait()                                    // ...and is being delivered
        resumeInitial.signal()                               // the subscriber joins now
        subscribed.wait()
        resumeDelivery.signal()
        updated.wait()
        #expect(seen.items == [1, 2])
        withExtendedLifetime((first, holder)) {}
    }

    /// The same with a subject whose completion is still queued when the subscriber
    /// joins: it catches up with the value it missed, then gets the completion, which
    /// removes it from the subject (as it removes every subscriber).
    @Test func aLateSubscriberOfASubjectGetsTheValueItMissedThenTheCompletion() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let seen = LockedLog<Int>()
        let delivering = DispatchSemaphore(value: 0), resumeDelivery = DispatchSemaphore(value: 0)
        let initialRead = DispatchSemaphore(value: 0), resumeInitial = DispatchSemaphore(value: 0)
        let subscribed = DispatchSemaphore(value: 0), sent = DispatchSemaphore(value: 0)
        let first = subject.sink { received in
            if received > 0 {
                delivering.signal()
                resumeDelivery.wait()
            }
        }
        let holder = LockedLog<AnyCancellable>()
        DispatchQueue.global().async {
            subject.send(1)
            sent.signal()
        }
        delivering.wait()                                    // 1 is being delivered
        DispatchQueue.global().async {
            holder.append(subject.sink { received in         // reads 1 while 1 is delivered
                seen.append(received)
                if seen.count == 1 {
                    initialRead.signal()
                    resumeInitial.wait()
                }
            })
            subscribed.signal()
        }
        initialRead.wait()
        subject.send(2)                                      // queued behind 1
        resumeDelivery.signal()
        delivering.wait()                                    // 2 is being delivered
        subject.send(completion: .finished)                  // queued behind 2
        resumeInitial.signal()                               // the subscriber joins now
        subscribed.wait()
        resumeDelivery.signal()
        sent.wait()
        #expect(seen.items == [1, 2])
        #expect(subject.core.channel.snapshot().isEmpty)      // the completion reached both
        withExtendedLifetime((first, holder)) {}
    }
}
