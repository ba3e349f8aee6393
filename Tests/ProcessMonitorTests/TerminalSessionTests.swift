import Testing
import Bindings
import ProcessMonitor

#if canImport(Glibc)
import Glibc
#endif

/// The interactive session on a recording terminal: how it starts, draws, and ends, and
/// that every ending restores the terminal.
@Suite struct TerminalSessionTests {
    private func session(width: Int = 80, height: Int = 24) throws -> (TerminalSession, RecordingTerminal, ProcReader) {
        let reader = try Fixture.reader("small", "t0")
        let terminal = RecordingTerminal(width: width, height: height)
        let ui = MonitorUI(monitor: Monitor(reader: reader, ticksPerSecond: 100), colors: false)
        return (TerminalSession(ui: ui, terminal: terminal), terminal, reader)
    }

    @Test func startEntersTheTerminalAndDrawsTheFirstFrame() throws {
        let (session, terminal, _) = try session(width: 40, height: 10)
        #expect(try session.start())
        #expect(terminal.events == ["enter", "write"])
        #expect(String(decoding: terminal.written.prefix(8), as: UTF8.self) == "\u{1B}[0m\u{1B}[2J")   // a full first frame
        #expect(session.ui.frame(size: session.size).lines[0] == "vm  up 10h 28m 59s")
    }

    @Test func qAndCtrlCQuitAndRestore() throws {
        for key: [UInt8] in [Array("q".utf8), [0x03]] {
            let (session, terminal, _) = try session()
            _ = try session.start()
            #expect(!session.input(key))
            #expect(session.ending == .quit)
            #expect(session.ending?.status == 0)
            #expect(terminal.restoreCount == 1)
            #expect(!session.tick())   // ended: no more refreshes or frames
            #expect(terminal.events.last == "restore")
        }
    }

    @Test func aSignalEndsTheSessionAndRestores() throws {
        let (session, terminal, _) = try session()
        _ = try session.start()
        #expect(!session.signal(SIGTERM))
        #expect(session.ending == .signal(SIGTERM))
        #expect(session.ending?.status == 143)
        #expect(terminal.restoreCount == 1)
        session.signal(SIGINT)   // a second ending changes nothing
        #expect(session.ending == .signal(SIGTERM))
        #expect(terminal.restoreCount == 1)
    }

    @Test func aFailingRefreshRestoresAndSaysWhy() throws {
        let (session, terminal, reader) = try session()
        _ = try session.start()
        let gone = try TemporaryDirectory()
        try gone.write("", to: "proc/uptime")
        try reader.switchRoot(to: gone.path)
        #expect(!session.tick())
        #expect(session.ending == .failure("\(gone.path)/proc/uptime does not hold the seconds since boot"))
        #expect(session.ending?.status == 1)
        #expect(terminal.events.suffix(1) == ["restore"])
    }

    @Test func aTerminalThatCannotEnterRawModeIsAnError() throws {
        let (session, terminal, _) = try session()
        terminal.enterError = TerminalError("standard input is not a terminal")
        #expect(throws: TerminalError("standard input is not a terminal")) { try session.start() }
        #expect(terminal.written == [])
    }

    @Test func aResizeLaysOutAgainAndDrawsEverything() throws {
        let (session, terminal, _) = try session(width: 80, height: 24)
        _ = try session.start()
        terminal.clearWritten()
        terminal.currentSize = TerminalSize(width: 30, height: 8)
        session.resized()
        #expect(session.size == TerminalSize(width: 30, height: 8))
        let written = String(decoding: terminal.written, as: UTF8.self)
        #expect(written.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(session.ui.frame(size: session.size).lines == [
            "vm  up 10h 28m 59s",
            "    PID CPU%▼  MEM% COMMAND",
            "   9612 113.2   0.0 sh -c whil",
            "      2   0.0   0.0 [kthreadd]",
            "      3   0.0   0.0 [pool_work",
            "      4   0.0   0.0 [kworker/R",
            "   9609   0.0   0.0 sleep 600",
            "s sort          CPU% ▼  7 of 7",
        ])
    }

    @Test func pausedTicksDoNotRefresh() throws {
        let (session, terminal, reader) = try session()
        _ = try session.start()
        _ = session.input(Array("p".utf8))
        try reader.switchRoot(to: Fixture.root("small", "t1"))
        terminal.clearWritten()
        #expect(session.tick())
        #expect(session.ui.monitor.system.uptime == 37739.14)   // still t0's
        #expect(terminal.written == [])   // and nothing to draw
        _ = session.input(Array("p".utf8))
        #expect(session.tick())
        #expect(session.ui.monitor.system.uptime == 37740.42)
    }

    /// The runner's wiring, with subjects for the system's event sources.
    @MainActor @Test func theRunnerEndsOnASignalAndReportsOnce() throws {
        let (session, terminal, _) = try session()
        var endings: [TerminalSession.Ending] = []
        let runner = InteractiveRunner(session: session) { endings.append($0) }
        let ticks = PassthroughSubject<Void, Never>()
        let input = PassthroughSubject<[UInt8], Never>()
        let signals = PassthroughSubject<Int32, Never>()
        let resizes = PassthroughSubject<Void, Never>()
        try runner.start(events: InteractiveRunner.Events(
            ticks: ticks.eraseToAnyPublisher(), input: input.eraseToAnyPublisher(),
            endSignals: signals.eraseToAnyPublisher(), resizes: resizes.eraseToAnyPublisher(),
            timeUp: Empty(completeImmediately: false).eraseToAnyPublisher()))
        ticks.send(())
        input.send(Array("s".utf8))
        #expect(session.ui.monitor.table.sortColumn == .memory)
        signals.send(SIGTERM)
        #expect(endings == [.signal(SIGTERM)])
        #expect(terminal.restoreCount == 1)
        input.send(Array("q".utf8))   // the runner stopped listening
        signals.send(SIGINT)
        #expect(endings == [.signal(SIGTERM)])
    }

    @MainActor @Test func theRunnerQuitsOnQAndWhenInputEnds() throws {
        for ending in ["q", "end of input", "time up"] {
            let (session, terminal, _) = try session()
            var endings: [TerminalSession.Ending] = []
            let runner = InteractiveRunner(session: session) { endings.append($0) }
            let input = PassthroughSubject<[UInt8], Never>()
            let timeUp = PassthroughSubject<Void, Never>()
            try runner.start(events: InteractiveRunner.Events(
                ticks: Empty(completeImmediately: false).eraseToAnyPublisher(), input: input.eraseToAnyPublisher(),
                endSignals: Empty(completeImmediately: false).eraseToAnyPublisher(),
                resizes: Empty(completeImmediately: false).eraseToAnyPublisher(), timeUp: timeUp.eraseToAnyPublisher()))
            switch ending {
            case "q": input.send(Array("q".utf8))
            case "end of input": input.send(completion: .finished)
            default: timeUp.send(())
            }
            #expect(endings == [.quit], "\(ending)")
            #expect(terminal.restoreCount == 1, "\(ending)")
        }
    }
}

/// The session and runner around their start.
@Suite struct TerminalSessionStartTests {
    @Test func aSignalBeforeTheStartKeepsTheTerminalAsItWas() throws {
        let terminal = RecordingTerminal(width: 80, height: 24)
        let ui = MonitorUI(monitor: Monitor(reader: try Fixture.reader("small"), ticksPerSecond: 100), colors: false)
        let session = TerminalSession(ui: ui, terminal: terminal)
        session.signal(SIGTERM)
        #expect(try !session.start())
        #expect(terminal.events == ["restore"])   // restoring a terminal never entered does nothing
        #expect(session.ending == .signal(SIGTERM))
    }

    @MainActor @Test func theRunnerListensForSignalsBeforeEnteringTheTerminal() throws {
        let terminal = RecordingTerminal(width: 80, height: 24)
        terminal.enterError = TerminalError("no terminal")
        let ui = MonitorUI(monitor: Monitor(reader: try Fixture.reader("small"), ticksPerSecond: 100), colors: false)
        var subscribedBeforeEnter = false
        let signals = PassthroughSubject<Int32, Never>()
        let runner = InteractiveRunner(session: TerminalSession(ui: ui, terminal: terminal)) { _ in }
        let events = InteractiveRunner.Events(
            ticks: Empty(completeImmediately: false).eraseToAnyPublisher(),
            input: Empty(completeImmediately: false).eraseToAnyPublisher(),
            endSignals: signals.handleEvents(receiveSubscription: { _ in
                subscribedBeforeEnter = terminal.events.isEmpty
            }).eraseToAnyPublisher(),
            resizes: Empty(completeImmediately: false).eraseToAnyPublisher(),
            timeUp: Empty(completeImmediately: false).eraseToAnyPublisher())
        #expect(throws: TerminalError("no terminal")) { try runner.start(events: events) }
        #expect(subscribedBeforeEnter)
    }
}
