import BindingsTestSupport
@testable import Bindings

// The test helpers that need the library's internals. They stay in the test target: the
// shared BindingsTestSupport module imports only the public API, since a `@testable
// import` needs a library built for testing, which `swift build -c release` (building
// every target of the package) does not do.

extension Observed {
    /// The number of observers registered with the property's channel (0 without one).
    var observerCount: Int { channel?.takeUnretainedValue().observerCount ?? 0 }
    /// Whether the property has a channel (it was observed at some point).
    var hasChannel: Bool { channel != nil }
    /// Whether some observer makes a set keep the old value (a copy).
    var wantsOld: Bool { channel?.takeUnretainedValue().wantsOld ?? false }
    /// Whether some observer makes a set send a prior notice.
    var wantsPrior: Bool { channel?.takeUnretainedValue().wantsPrior ?? false }
    /// Counts the events sent through the property's channel from now on (changes and
    /// prior notices), or `nil` when the property has no channel (was never observed).
    func countEvents() -> ChannelEventCounter<Value>? {
        guard let channel = channel?.takeUnretainedValue() else { return nil }
        let counter = ChannelEventCounter<Value>()
        channel.add(counter)
        return counter
    }
}

/// A raw channel observer that counts what reaches it: it asks for no old values and no
/// prior notices, so attaching it changes nothing of what a set sends.
final class ChannelEventCounter<Value>: ChannelObserver<PropertyEvent<Value>> {
    private(set) var count = 0
    override func receive(_ event: PropertyEvent<Value>) { count += 1 }
}

extension AnyCancellable {
    /// What this cancellable cancels (`nil` once cancelled): which path a subscription or
    /// binding took.
    var targetForTesting: CancellationTarget? {
        target.load(ordering: .acquiring).map { Unmanaged<CancellationTarget>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// The library's warnings that the tests of this process caused (see
/// `captureLibraryWarnings()`).
let capturedLibraryWarnings = LockedLog<String>()

/// Sends the library's warnings to `capturedLibraryWarnings` instead of standard error,
/// for the rest of this process: the suites whose tests observe untracked key paths on
/// purpose call it, so that a passing run prints no warnings. (An exit test's child
/// process does not: its standard error is what those tests read.)
func captureLibraryWarnings() {
    ObservationTarget.warningSink = { capturedLibraryWarnings.append($0) }
}
