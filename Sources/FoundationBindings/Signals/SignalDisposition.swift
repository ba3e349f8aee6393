#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a process does when it receives a signal (its `sigaction`), saved and restored
/// by the ``SignalRegistry``.
struct SignalDisposition {
    private var action: sigaction

    private init(action: sigaction) {
        self.action = action
    }

    /// The disposition `signal` has now.
    static func current(of signal: Int32) -> SignalDisposition {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return SignalDisposition(action: action)
    }

    /// Ignoring the signal (`SIG_IGN`).
    static var ignore: SignalDisposition {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = SIG_IGN
        #else
        action.__sigaction_handler.sa_handler = SIG_IGN
        #endif
        return SignalDisposition(action: action)
    }

    /// Whether this disposition runs a handler, rather than the default action or
    /// ignoring the signal.
    var isHandler: Bool {
        #if canImport(Darwin)
        let address = unsafeBitCast(action.__sigaction_u.__sa_handler, to: UInt.self)
        #else
        let address = unsafeBitCast(action.__sigaction_handler.sa_handler, to: UInt.self)
        #endif
        // SIG_DFL is 0 and SIG_IGN is 1; with SA_SIGINFO the handler shares the field.
        return address > 1
    }

    /// Makes this the disposition of `signal`.
    func install(for signal: Int32) {
        var action = self.action
        sigaction(signal, &action, nil)
    }
}
