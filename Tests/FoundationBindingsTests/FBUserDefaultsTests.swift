import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: UserDefaults")
struct FBUserDefaultsTests {
    /// Defaults of a suite no other test uses (Linux CFPreferences was seen to return nil
    /// for a key just written while parallel tests wrote other keys of a shared suite),
    /// and a key.
    private let defaults = UserDefaults(suiteName: "FoundationBindingsTests.\(UUID().uuidString)")!
    private let key = "FBUserDefaultsTests.key"

    @Test func theCurrentValueArrivesFirstThenAWrittenOneByPolling() {
        defer { defaults.removeObject(forKey: key) }
        defaults.set("first", forKey: key)
        let recorder = TestRecorder<String?, Never>(releasesSubscription: [.onCompletion, .onCancel])
        defaults.reactive.value(forKey: key, as: String.self, pollInterval: .milliseconds(10)).subscribe(recorder)
        // The current value arrives inside subscribe, on the subscribing thread.
        #expect(recorder.events == [.value("first")])
        #expect(pthread_equal(recorder.deliveryContexts[0].thread, pthread_self()) != 0)

        defaults.set("second", forKey: key)
        #expect(recorder.wait { $0.count == 2 })
        defaults.removeObject(forKey: key)
        #expect(recorder.wait { $0.count == 3 })
        #expect(recorder.events == [.value("first"), .value("second"), .value(nil)])
        // Changes arrive on the subscription's queue, not the writer's thread.
        #expect(pthread_equal(recorder.deliveryContexts[1].thread, pthread_self()) == 0)
        recorder.cancel()
    }

    @Test func theDidChangeNotificationTriggersAReadWithoutPolling() {
        defer { defaults.removeObject(forKey: key) }
        let recorder = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
        defaults.reactive.value(forKey: key, default: 5, pollInterval: nil).subscribe(recorder)
        #expect(recorder.values == [5])
        defaults.set(7, forKey: key)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        #expect(recorder.wait { $0.count == 2 })
        // A value of another type reads as the default.
        defaults.set("seven", forKey: key)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        #expect(recorder.wait { $0.count == 3 })
        #expect(recorder.values == [5, 7, 5])
        recorder.cancel()
    }

    @Test func anUnchangedValueIsNotRepublished() {
        defer { defaults.removeObject(forKey: key) }
        defaults.set(1, forKey: key)
        let recorder = TestRecorder<Int?, Never>(releasesSubscription: [.onCompletion, .onCancel])
        defaults.reactive.value(forKey: key, as: Int.self, pollInterval: .milliseconds(5)).subscribe(recorder)
        defaults.set(1, forKey: key)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        usleep(30_000)  // several polls
        defaults.set(2, forKey: key)
        #expect(recorder.wait { $0.count == 2 })
        #expect(recorder.values == [1, 2])
        recorder.cancel()
    }

    @Test func withoutDemandTheCurrentValueWaitsForTheRequest() {
        defer { defaults.removeObject(forKey: key) }
        defaults.set(true, forKey: key)
        let recorder = TestRecorder<Bool, Never>(initialDemand: .none, releasesSubscription: [.onCompletion, .onCancel])
        defaults.reactive.value(forKey: key, default: false, pollInterval: nil).subscribe(recorder)
        #expect(recorder.events == [])
        recorder.request(.max(1))
        #expect(recorder.values == [true])
        recorder.cancel()
    }

    @Test func cancelStopsReadingAndReleasesTheSubscription() {
        defer { defaults.removeObject(forKey: key) }
        defaults.set(1, forKey: key)
        let recorder = TestRecorder<Int?, Never>(releasesSubscription: [.onCompletion, .onCancel])
        defaults.reactive.value(forKey: key, as: Int.self, pollInterval: .milliseconds(5)).subscribe(recorder)
        weak let subscription = recorder.subscription as AnyObject?
        recorder.cancel()
        defaults.set(2, forKey: key)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        usleep(30_000)  // several polls
        #expect(recorder.values == [1])
        #expect(eventually { subscription == nil })
    }
}
