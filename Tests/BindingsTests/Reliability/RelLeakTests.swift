import BindingsTestSupport
import Dispatch
import Testing
@testable import Bindings

// SPEC section 6, lifetime: nothing that attaches keeps a model or an owner alive, and
// when the token, the owner or the model goes, what was attached is released at once
// (checked with weak references, not at the next value), also from inside a callback.

final class RelLeakChild: KeyValueObservable {
    @Observed var x = 0
}

final class RelLeakModel: KeyValueObservable {
    @Observed var a = 0
    @Observed var b = 0
    @Observed var child = RelLeakChild()
    var sum: Int { a + b }

    /// How many observers each of the model's channels has (dependency links included).
    var observerCounts: [Int] {
        [$a.channel.observerCount, $b.channel.observerCount, $child.channel.observerCount,
         child.$x.channel.observerCount]
    }
}

final class RelLeakOwner: BindingOwner {
    var value = 0
    var subscriptions = Set<AnyCancellable>()
}

/// The object a closure under test captures; its weak reference tells whether the closure
/// was released. `action` runs from inside the callback.
final class RelLeakProbe {
    var fired = 0
    var action: (() -> Void)?

    func fire() {
        fired += 1
        action?()
    }
}

/// Every way of attaching to a model.
enum RelLeakAttachment: String, CaseIterable, CustomStringConvertible, Sendable {
    case projectionSink, publisherSink, computedSink, chainSink, operatorsSink, reactiveSink
    case observeStored, observeComputed, observeChain
    case bindOperator, bindInlineComputed, bindLeftToRightChain, customSink
    case subscriber

    var description: String { rawValue }

    /// Whether the attachment ends with an owner (else with a token).
    var isOwned: Bool { [.bindOperator, .bindInlineComputed, .bindLeftToRightChain, .customSink].contains(self) }

    /// Whether releasing the model releases the closure at once even while the token lives:
    /// a `KeyValueObservation` holds neither, a sink drops its closure when its model goes,
    /// and an operator chain when the completion passes through it.
    var releasesClosureWithModel: Bool { self != .subscriber }

    /// Makes the attachment fire.
    func poke(_ model: RelLeakModel) {
        switch self {
        case .chainSink, .observeChain, .bindLeftToRightChain: model.child.x += 1
        default: model.a += 1
        }
    }

    /// Attaches a closure that captures `probe`; returns the token, or the owner.
    func attach(to model: RelLeakModel, probe: RelLeakProbe) -> AnyObject {
        switch self {
        case .projectionSink: return model.$a.sink { _ in probe.fire() }
        case .publisherSink: return model.publisher(for: \.a).sink { _ in probe.fire() }
        case .computedSink: return model.publisher(for: \.sum).sink { _ in probe.fire() }
        case .chainSink: return model.publisher(for: \.child.x).sink { _ in probe.fire() }
        case .operatorsSink:
            return model.publisher(for: \.a).map { $0 + 1 }.filter { _ in true }.removeDuplicates()
                .scan(0, +).handleEvents(receiveOutput: { _ in probe.fire() }).sink { _ in }
        case .reactiveSink: return model.reactive.sum.sink { _ in probe.fire() }
        case .observeStored: return model.observe(\.a, options: [.initial, .new]) { _, _ in probe.fire() }
        case .observeComputed: return model.observe(\.sum, options: [.initial, .new]) { _, _ in probe.fire() }
        case .observeChain: return model.observe(\.child.x, options: [.initial, .new]) { _, _ in probe.fire() }
        case .bindOperator:
            let owner = RelLeakOwner()
            owner.reactive.value <~ model.reactive.a.handleEvents(receiveOutput: { _ in probe.fire() })
            return owner
        case .bindInlineComputed:
            let owner = RelLeakOwner()
            model.reactive.sum.bind(to: owner) { owner, sum in
                owner.value = sum
                probe.fire()
            }
            return owner
        case .bindLeftToRightChain:
            let owner = RelLeakOwner()
            model.publisher(for: \.child.x).handleEvents(receiveOutput: { _ in probe.fire() }) ~> owner.reactive.value
            return owner
        case .customSink:
            let owner = RelLeakOwner()
            BindingSink(owner: owner) { owner, value in
                owner.value = value
                probe.fire()
            } <~ model.reactive.sum
            return owner
        case .subscriber:
            // Like `Sink`, it lets go of its subscription on completion and on cancel, so
            // that its `weakSubscription` tells whether the library released it.
            let subscriber = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
            subscriber.onValue = { _ in probe.fire() }
            model.publisher(for: \.sum).subscribe(subscriber)
            return subscriber
        }
    }

    /// Ends the attachment explicitly, keeping the token (owners are released instead).
    static func end(_ handle: AnyObject) {
        switch handle {
        case let cancellable as AnyCancellable: cancellable.cancel()
        case let token as KeyValueObservation: token.invalidate()
        case let subscriber as TestRecorder<Int, Never>: subscriber.cancel()
        default: Issue.record("not a token: \(handle)")
        }
    }
}

@Suite("Reliability: leaks")
struct RelLeakTests {
    @Test(arguments: RelLeakAttachment.allCases)
    func releasingTheTokenOrOwnerReleasesEverything(_ attachment: RelLeakAttachment) {
        let model = RelLeakModel()
        weak var weakProbe: RelLeakProbe?
        weak var weakHandle: AnyObject?
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            var handle: AnyObject? = attachment.attach(to: model, probe: probe)
            weakHandle = handle
            attachment.poke(model)
            #expect(probe.fired == 2, "the current value, then the change")
            // A bare subscriber and its subscription hold each other until cancelled, as in
            // Combine: ending it is cancelling it.
            if let subscriber = handle as? TestRecorder<Int, Never> { subscriber.cancel() }
            handle = nil
        }
        #expect(weakHandle == nil, "the token or owner was kept alive")
        #expect(weakProbe == nil, "the captured object outlived the token or owner")
        // A computed or chained key path's observation stays idle until the next change.
        attachment.poke(model)
        #expect(model.observerCounts == [0, 0, 0, 0], "registrations left behind")
    }

    @Test(arguments: RelLeakAttachment.allCases.filter { !$0.isOwned })
    func cancellingKeepsNothingWhileTheTokenLives(_ attachment: RelLeakAttachment) {
        let model = RelLeakModel()
        weak var weakProbe: RelLeakProbe?
        let handle: AnyObject
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            handle = attachment.attach(to: model, probe: probe)
            attachment.poke(model)
        }
        RelLeakAttachment.end(handle)
        if let subscriber = handle as? TestRecorder<Int, Never> {
            // The test's own subscriber holds the probe; the library must drop its subscription.
            #expect(subscriber.weakSubscription == nil, "the library kept a cancelled subscription")
            return
        }
        #expect(weakProbe == nil, "cancel() or invalidate() kept the closure")
        RelLeakAttachment.end(handle)   // twice: harmless
        attachment.poke(model)          // an idle observation leaves at the next change
        #expect(model.observerCounts == [0, 0, 0, 0])
        #expect(weakProbe == nil)
        withExtendedLifetime(handle) {}
    }

    @Test(arguments: RelLeakAttachment.allCases)
    func releasingTheModelReleasesItAtOnce(_ attachment: RelLeakAttachment) {
        weak var weakModel: RelLeakModel?
        weak var weakProbe: RelLeakProbe?
        var child: RelLeakChild? = nil
        var handle: AnyObject?
        do {
            let model = RelLeakModel()
            weakModel = model
            child = model.child
            let probe = RelLeakProbe()
            weakProbe = probe
            handle = attachment.attach(to: model, probe: probe)
            attachment.poke(model)
        }
        #expect(released { weakModel == nil }, "an attachment kept the model alive")
        if attachment.releasesClosureWithModel {
            #expect(weakProbe == nil, "the observation kept its handler after the model was gone")
        }
        if let subscriber = handle as? TestRecorder<Int, Never> {
            #expect(subscriber.events.filter { $0 == .finished }.count == 1, "the subscriber heard that the model is gone")
            #expect(subscriber.weakSubscription == nil, "the library kept the subscription")
        }
        child?.x += 1   // a chain's old link is gone: nothing fires, nothing crashes
        handle = nil
        #expect(weakProbe == nil)
        #expect(child?.$x.channel.observerCount == 0)
    }

    @Test(arguments: RelLeakAttachment.allCases)
    func endingFromInsideItsOwnCallbackReleasesEverything(_ attachment: RelLeakAttachment) {
        let model = RelLeakModel()
        weak var weakProbe: RelLeakProbe?
        weak var weakHandle: AnyObject?
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            var handle: AnyObject? = attachment.attach(to: model, probe: probe)
            weakHandle = handle
            let isOwned = attachment.isOwned
            probe.action = {
                // Cancel (or release the owner) from inside the callback.
                if isOwned { handle = nil } else if let token = handle { RelLeakAttachment.end(token) }
            }
            attachment.poke(model)
            #expect(probe.fired == 2)
            if let subscriber = handle as? TestRecorder<Int, Never> { subscriber.cancel() }
            handle = nil
        }
        #expect(weakHandle == nil)
        #expect(weakProbe == nil, "the captured object outlived an end from inside its callback")
        attachment.poke(model)          // an idle observation leaves at the next change
        #expect(model.observerCounts == [0, 0, 0, 0], "registrations left behind by an end from inside a callback")
    }

    @Test(arguments: RelLeakAttachment.allCases)
    func releasingTheModelFromInsideACallbackReleasesIt(_ attachment: RelLeakAttachment) {
        weak var weakModel: RelLeakModel?
        weak var weakProbe: RelLeakProbe?
        let child: RelLeakChild
        var handle: AnyObject?
        do {
            var model: RelLeakModel? = RelLeakModel()
            weakModel = model
            child = model!.child
            let probe = RelLeakProbe()
            weakProbe = probe
            handle = attachment.attach(to: model!, probe: probe)
            probe.action = { model = nil }
            // Through the child, so that nothing up the stack holds the model.
            child.x += 1
            model?.a += 1
        }
        #expect(released { weakModel == nil }, "the model outlived its release inside a callback")
        withExtendedLifetime(handle) {}
        handle = nil
        #expect(weakProbe == nil)
        #expect(child.$x.channel.observerCount == 0)
    }

    @Test func ownersAndModelsKeepEachOtherAlive_never() {
        weak var weakModel: RelLeakModel?
        weak var weakOwner: RelLeakOwner?
        do {
            let model = RelLeakModel()
            let owner = RelLeakOwner()
            weakModel = model
            weakOwner = owner
            owner.reactive.value <~ model.reactive.sum
            model.reactive.a.bind(to: owner) { owner, value in owner.value = value }
            model.$a.bind(owner) { owner, value in owner.value = value }
            #expect(owner.subscriptions.count == 3, "the two bindings, and the listener's copy")
        }
        #expect(weakModel == nil)
        #expect(weakOwner == nil)
    }

    @Test func ownerListenersAreDroppedAtUnbindOrAtOnceWhenReleased() {
        let model = RelLeakModel()
        weak var weakProbe: RelLeakProbe?
        var listener: RelLeakOwner? = RelLeakOwner()
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            model.$a.bind(listener!) { _, _ in probe.fire() }
            model.$b.bind(listener!) { _, _ in probe.fire() }
        }
        model.$a.unbind(listener!)
        #expect(model.$a.channel.observerCount == 0, "unbind releases at once")
        #expect(listener!.subscriptions.count == 1, "unbind takes its copy out of the owner's storage")
        // A listener that is a BindingOwner keeps its bindings in its storage too.
        listener = nil
        #expect(model.$b.channel.observerCount == 0)
        #expect(weakProbe == nil)
    }

    @Test func plainListenersAreDroppedAtTheNextValue() {
        final class PlainListener {}
        let model = RelLeakModel()
        weak var weakProbe: RelLeakProbe?
        var listener: PlainListener? = PlainListener()
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            model.$b.bind(listener!) { _, _ in probe.fire() }
        }
        // Any other object has no storage that could end the binding when it goes: its
        // handler goes at the property's next value.
        listener = nil
        #expect(model.$b.channel.observerCount == 1)
        model.b += 1
        #expect(model.$b.channel.observerCount == 0)
        #expect(weakProbe == nil)
    }

    @Test func bindingAndUnbindingAgainDoesNotGrowTheOwnersStorage() {
        let model = RelLeakModel()
        let listener = RelLeakOwner()
        for _ in 0..<100 {
            model.$a.bind(listener) { owner, value in owner.value = value }
            model.$a.unbind(listener)
        }
        #expect(listener.subscriptions.isEmpty)
        #expect(model.$a.channel.observerCount == 0)
    }

    @Test func observableValueAndSubjectAttachmentsAreReleased() {
        let value = ObservableValue(0)
        let passthrough = PassthroughSubject<Int, Never>()
        let current = CurrentValueSubject<Int, Never>(0)
        weak var weakProbe: RelLeakProbe?
        var tokens: [AnyCancellable] = []
        var owner: RelLeakOwner? = RelLeakOwner()
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            tokens.append(value.sink { _ in probe.fire() })
            tokens.append(passthrough.sink { _ in probe.fire() })
            tokens.append(current.sink { _ in probe.fire() })
            value.bind(to: owner!) { _, _ in probe.fire() }
            owner!.reactive.value <~ current.handleEvents(receiveOutput: { _ in probe.fire() })
        }
        value.update(1)
        passthrough.send(1)
        current.send(1)
        for token in tokens { token.cancel() }
        owner = nil
        #expect(weakProbe == nil)
        #expect(value.channel.observerCount == 0)
        #expect(passthrough.core.channel.observerCount == 0)
        #expect(current.core.channel.observerCount == 0)
    }

    /// An `ObservableValue` released while observers are still attached releases them
    /// (its channel and its observers would otherwise hold each other): a listener, which
    /// has no token, is released at once, and a subscriber finishes.
    @Test func releasingAnObservableValueReleasesWhatIsAttached() {
        weak var weakProbe: RelLeakProbe?
        weak var weakChannel: PropertyChannel<Int>?
        let listener = RelLeakOwner()
        let subscriber: TestRecorder<Int, Never>
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            subscriber = TestRecorder<Int, Never>(releasesSubscription: [.onCompletion, .onCancel])
            let value = ObservableValue(0)
            weakChannel = value.channel
            value.bind(listener) { _, _ in probe.fire() }
            value.subscribe(subscriber)
            value.update(1)
            #expect(probe.fired == 2)
        }
        #expect(weakProbe == nil, "a listener's handler outlived its ObservableValue")
        #expect(weakChannel == nil, "the channel outlived its ObservableValue")
        #expect(subscriber.events.filter { $0 == .finished }.count == 1)
        #expect(subscriber.weakSubscription == nil)
    }

    /// Operators hold their upstream subscription and downstream; cancelling the sink at the
    /// end of a chain releases every closure in it, and the subject's registration.
    @Test func operatorChainsAreReleasedOnCancel() {
        let subject = PassthroughSubject<Int, Never>()
        let other = PassthroughSubject<Int, Never>()
        let inner = CurrentValueSubject<Int, Never>(0)
        weak var weakProbe: RelLeakProbe?
        var tokens: [AnyCancellable] = []
        do {
            let probe = RelLeakProbe()
            weakProbe = probe
            let touch: (Int) -> Int = { probe.fired += 1; return $0 }
            tokens.append(subject.map(touch).compactMap { $0 }.filter { _ in true }.removeDuplicates { _, _ in false }
                .dropFirst(0).prefix(100).prepend(-1).scan(0) { $1 + 0 * $0 }.setFailureType(to: Never.self)
                .eraseToAnyPublisher().sink { _ in })
            tokens.append(subject.map(touch).combineLatest(other).sink { _ in })
            tokens.append(subject.combineLatest(other, inner) { a, _, _ in touch(a) }.sink { _ in })
            tokens.append(subject.map(touch).merge(with: other).sink { _ in })
            tokens.append(subject.map { _ in inner.map(touch) }.switchToLatest().sink { _ in })
            tokens.append(subject.flatMap { _ in inner.map(touch) }.sink { _ in })
            tokens.append(subject.map(touch).receive(on: ImmediateScheduler.shared).sink { _ in })
            tokens.append(subject.map(touch).debounce(for: .seconds(60), scheduler: DispatchQueue.global()).sink { _ in })
            tokens.append(subject.map(touch).throttle(for: .seconds(60), scheduler: DispatchQueue.global(), latest: true)
                .sink { _ in })
        }
        subject.send(1)
        other.send(2)
        subject.send(3)
        inner.send(4)
        for token in tokens { token.cancel() }
        #expect(weakProbe == nil, "an operator kept a closure after cancel")
        #expect(subject.core.channel.observerCount == 0)
        #expect(other.core.channel.observerCount == 0)
        #expect(inner.core.channel.observerCount == 0)
    }

    /// `assign(to:on:)` holds its object strongly, as in Combine: until cancelled.
    @Test func assignReleasesItsObjectOnCancel() {
        let model = RelLeakModel()
        weak var weakOwner: RelLeakOwner?
        let token: AnyCancellable
        do {
            let owner = RelLeakOwner()
            weakOwner = owner
            token = model.$a.assign(to: \.value, on: owner)
        }
        model.a = 3
        #expect(weakOwner?.value == 3)
        token.cancel()
        #expect(weakOwner == nil)
        #expect(model.$a.channel.observerCount == 0)
    }
}
