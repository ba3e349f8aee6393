import Testing
import ProcessMonitor

#if canImport(Glibc)
import Glibc
#endif

/// The real terminal code on a pseudo-terminal: raw mode, the alternate screen, the
/// size, and a restore that puts everything back; and the crash guard in a child process.
@Suite struct SystemTerminalTests {
    /// A pseudo-terminal: the monitor's side (`device`) and the side that sees its output.
    private final class PseudoTerminal {
        let controller: Int32
        let device: Int32

        init() throws {
            // What posix_openpt, unlockpt and ptsname do on Linux (the Glibc module exports
            // neither them nor these requests, made by C macros): TIOCSPTLCK and TIOCGPTN
            // as asm-generic defines them, for x86_64 and arm64 alike.
            let TIOCSPTLCK: UInt = 0x4004_5431
            let TIOCGPTN: UInt = 0x8004_5430
            controller = open("/dev/ptmx", O_RDWR | O_NOCTTY)
            try #require(controller >= 0)
            var unlock: Int32 = 0
            var number: UInt32 = 0
            try #require(ioctl(controller, TIOCSPTLCK, &unlock) == 0)
            try #require(ioctl(controller, TIOCGPTN, &number) == 0)
            device = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
            try #require(device >= 0)
        }

        deinit {
            close(device)
            close(controller)
        }

        /// What the monitor wrote so far.
        func output() -> String {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var poller = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
                guard poll(&poller, 1, 100) > 0 else { break }
                let count = read(controller, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        func settings() -> termios {
            var settings = termios()
            tcgetattr(device, &settings)
            return settings
        }
    }

    private func same(_ a: termios, _ b: termios) -> Bool {
        var a = a, b = b
        return memcmp(&a, &b, MemoryLayout<termios>.size) == 0
    }

    @Test func rawModeAndTheAlternateScreenComeAndGo() throws {
        let pty = try PseudoTerminal()
        let before = pty.settings()
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == tcflag_t(ICANON | ECHO | ISIG))
        let terminal = SystemTerminal(input: pty.device, output: pty.device, guardsCrashes: false)
        try terminal.enter()
        let raw = pty.settings()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)   // keys one by one, unechoed, Ctrl-C a byte
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(pty.output() == "\u{1B}[?1049h\u{1B}[?25l\u{1B}[0m\u{1B}[2J")
        terminal.restore()
        #expect(same(pty.settings(), before))
        #expect(pty.output() == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        terminal.restore()   // once only
        #expect(pty.output() == "")
    }

    @Test func theSizeIsTheTerminals() throws {
        let pty = try PseudoTerminal()
        var window = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        #expect(ioctl(pty.controller, UInt(TIOCSWINSZ), &window) == 0)
        #expect(SystemTerminal(input: pty.device, output: pty.device, guardsCrashes: false).size() == TerminalSize(width: 100, height: 30))
    }

    @Test func notATerminalIsAnErrorThatSaysWhatToDo() throws {
        let file = try TemporaryDirectory()
        try file.write("", to: "input")
        let descriptor = open(file.path + "/input", O_RDONLY)
        defer { close(descriptor) }
        let terminal = SystemTerminal(input: descriptor, output: descriptor, guardsCrashes: false)
        #expect(throws: TerminalError("standard input is not a terminal (Inappropriate ioctl for device): run the monitor in a terminal, or pass --once for a snapshot")) {
            try terminal.enter()
        }
        #expect(terminal.size() == nil)
    }

    @Test func aCrashRestoresTheTerminal() async {
        // The child crashes (an index out of range traps) with the guard installed, its
        // "terminal" being its standard output: the restoring sequence must be there.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardOutputContent]) {
            CrashGuard.install(descriptor: STDOUT_FILENO, restoring: nil, on: STDIN_FILENO)
            let values = [1, 2, 3]
            print(values[values.count + Int(getpid() % 1)])
        }
        #expect(String(decoding: result?.standardOutputContent ?? [], as: UTF8.self) == "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
    }
}
