// The real terminal, through termios and ioctl. Raw mode is what `cfmakeraw` sets, less
// output processing being kept (harmless: the monitor positions the cursor itself):
// keys arrive one at a time, unechoed, Ctrl-C as a byte rather than a SIGINT.

#if canImport(Glibc)
import Glibc
#endif

/// The terminal on the process's standard input and output.
package final class SystemTerminal: TerminalDevice {
    private let input: Int32
    private let output: Int32
    /// The settings found by ``enter()``, put back by ``restore()``.
    private var original: termios?
    private var entered = false
    private let guardsCrashes: Bool

    /// The terminal reading `input` and drawing on `output`; with `guardsCrashes`, a
    /// crash of the process restores it too (see ``CrashGuard``).
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, guardsCrashes: Bool = true) {
        self.input = input
        self.output = output
        self.guardsCrashes = guardsCrashes
    }

    package func size() -> TerminalSize? {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
            return nil
        }
        return TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    package func enter() throws(TerminalError) {
        guard !entered else { return }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw TerminalError("standard input is not a terminal (\(String(cString: strerror(errno)))): run the monitor in a terminal, or pass --once for a snapshot")
        }
        original = settings
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1    // a read returns as soon as a byte is there
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
            throw TerminalError("cannot put the terminal in raw mode (\(String(cString: strerror(errno))))")
        }
        entered = true
        // From here on a crash must not leave the terminal raw and on the other screen.
        if guardsCrashes { CrashGuard.install(descriptor: output, restoring: settings, on: input) }
        write(Array(TerminalSequences.enter.utf8))
    }

    package func restore() {
        guard entered else { return }
        entered = false
        write(Array(TerminalSequences.leave.utf8))
        if var original { _ = tcsetattr(input, TCSADRAIN, &original) }
    }

    package func write(_ bytes: [UInt8]) {
        FileOutput.write(bytes, to: output)
    }
}
