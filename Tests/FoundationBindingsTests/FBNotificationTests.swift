import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: NotificationCenter")
struct FBNotificationTests {
    private let name = Notification.Name("FBNotificationTests.ping")
    private let otherName = Notification.Name("FBNotificationTests.other")

    /// The "index" of a notification's user info, or -1.
    private static func index(_ note: Notification) -> Int {
        note.userInfo?["index"] as? Int ?? -1
    }

    private func post(_ center: NotificationCenter, _ name: Notification.Name, _ object: AnyObject?, _ index: Int) {
        center.post(name: name, object: object, userInfo: ["index": index])
    }

    @Test func aPostedNotificationArrivesOnThePostingThreadAndOneForAnotherObjectDoesNot() {
        let center = NotificationCenter()
        let sender = NSObject()
        let other = NSObject()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        center.reactive.notifications(named: name, object: sender).map(Self.index).subscribe(recorder)

        post(center, name, sender, 1)
        post(center, name, other, 2)
        post(center, name, nil, 3)
        post(center, otherName, sender, 4)
        post(center, name, sender, 5)

        // Synchronous: no waiting.
        #expect(recorder.events == [.value(1), .value(5)])
        #expect(recorder.deliveryContexts.allSatisfy { pthread_equal($0.thread, pthread_self()) != 0 })
        recorder.cancel()
    }

    @Test func withoutAnObjectEverySenderIsPublished() {
        let center = NotificationCenter()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        center.reactive.notifications(named: name).map(Self.index).subscribe(recorder)
        post(center, name, NSObject(), 1)
        post(center, name, nil, 2)
        post(center, otherName, nil, 3)
        #expect(recorder.values == [1, 2])
        recorder.cancel()
    }

    @Test func theNotificationItselfIsPublished() {
        let center = NotificationCenter()
        let sender = NSObject()
        var received: [Notification] = []
        let cancellable = center.reactive.notifications(named: name, object: sender).sink { received.append($0) }
        post(center, name, sender, 7)
        #expect(received.count == 1)
        #expect(received.first?.name == name)
        #expect(received.first?.object as AnyObject? === sender)
        #expect(received.first.map(Self.index) == 7)
        cancellable.cancel()
    }

    @Test func combinesSpellingPublishesTheSameNotifications() {
        // `NotificationCenter.Publisher`, as Combine code names it.
        let center = NotificationCenter()
        let sender = NSObject()
        let publisher: NotificationCenter.Publisher = center.publisher(for: name, object: sender)
        #expect(publisher.center === center)
        #expect(publisher.name == name)
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(2), releasesSubscription: [.onCompletion, .onCancel])
        publisher.map(Self.index).subscribe(recorder)
        post(center, name, sender, 1)
        post(center, name, NSObject(), 2)
        post(center, name, sender, 3)
        post(center, name, sender, 4)   // no demand left: dropped
        #expect(recorder.values == [1, 3])
        recorder.cancel()
        recorder.request(.max(5))
        post(center, name, sender, 5)
        #expect(recorder.values == [1, 3])
    }

    @Test func aNotificationPostedWithoutDemandIsDropped() {
        let center = NotificationCenter()
        let recorder = TestRecorder<Int, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        center.reactive.notifications(named: name).map(Self.index).subscribe(recorder)
        post(center, name, nil, 1)
        post(center, name, nil, 2)
        recorder.request(.max(1))
        post(center, name, nil, 3)
        post(center, name, nil, 4)
        #expect(recorder.values == [1, 3])
        recorder.cancel()
    }

    @Test func aNotificationPostedFromInsideADeliveryArrivesAfterIt() {
        let center = NotificationCenter()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        recorder.onValue = { index in
            if index == 1 { center.post(name: name, object: nil, userInfo: ["index": 2]) }
        }
        center.reactive.notifications(named: name).map(Self.index).subscribe(recorder)
        post(center, name, nil, 1)
        post(center, name, nil, 3)
        #expect(recorder.values == [1, 2, 3])
        recorder.cancel()
    }

    @Test func cancelRemovesTheObserverAndReleasesTheSubscription() {
        let center = NotificationCenter()
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        center.reactive.notifications(named: name).map(Self.index).subscribe(recorder)
        post(center, name, nil, 1)
        weak let subscription = recorder.subscription as AnyObject?
        #expect(subscription != nil)
        recorder.cancel()
        post(center, name, nil, 2)
        #expect(recorder.values == [1])
        #expect(subscription == nil)
    }

    @Test func everySubscriberHasItsOwnObserver() {
        let center = NotificationCenter()
        let first = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let second = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        let publisher = center.reactive.notifications(named: name).map(Self.index)
        publisher.subscribe(first)
        publisher.subscribe(second)
        post(center, name, nil, 1)
        first.cancel()
        post(center, name, nil, 2)
        #expect(first.values == [1])
        #expect(second.values == [1, 2])
        second.cancel()
    }
}
