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
        let handler = action.__sigaction_u.__sa_handler
        #else
        let handler = action.__sigaction_handler.sa_handler
        #endif
        // SIG_DFL is 0 and SIG_IGN is 1; with SA_SIGINFO the handler shares the field. A C
        // function pointer has no integer conversion: its bytes (a pointer's, `nil` for 0)
        // are read as one, which `load` allows for a trivial type of the same size.
        let address = withUnsafeBytes(of: handler) { $0.load(as: UInt.self) }
        return address > 1
    }

    /// Makes this the disposition of `signal`.
    func install(for signal: Int32) {
        var action = self.action
        sigaction(signal, &action, nil)
    }
}
