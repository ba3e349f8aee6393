import Testing
import ProcessMonitor

/// Key decoding and what each key does.
@Suite struct KeyTests {
    @Test func bytesDecodeIntoKeys() {
        var decoder = KeyDecoder()
        #expect(decoder.decode(Array("sS/q".utf8)) == [.character("s"), .character("S"), .character("/"), .character("q")])
        #expect(decoder.decode([0x03, 0x0D, 0x7F, 0x08, 0x0C, 0x1B]) == [.interrupt, .enter, .backspace, .backspace, .redraw, .escape])
        #expect(decoder.decode(Array("\u{1B}[A\u{1B}[B\u{1B}[5~\u{1B}[6~\u{1B}OH\u{1B}[4~".utf8)) == [.up, .down, .pageUp, .pageDown, .home, .end])
        #expect(decoder.decode(Array("\u{1B}[Zx".utf8)) == [.character("x")])   // an unknown sequence is skipped
        #expect(decoder.decode(Array("\u{1B}x".utf8)) == [.escape, .character("x")])
    }

    @Test func aCharacterSplitAcrossReadsWaitsForItsEnd() {
        var decoder = KeyDecoder()
        let bytes = Array("é".utf8)
        #expect(decoder.decode(bytes[..<1]) == [])
        #expect(decoder.decode(bytes[1...]) == [.character("é")])
    }

    private func controller() throws -> (KeyController, Monitor, FilterFieldView, ProcessTableView) {
        let monitor = try Fixture.monitor("small")
        let field = FilterFieldView()
        field.bind(to: monitor.table)
        let view = ProcessTableView()
        view.bind(to: monitor.table)
        return (KeyController(table: monitor.table, field: field, state: monitor.state, view: view), monitor, field, view)
    }

    @Test func commandKeys() throws {
        let (keys, monitor, field, _) = try controller()
        #expect(keys.handle(.character("s")) == .redraw)
        #expect(monitor.table.sortTitle == "MEM% ▼")
        #expect(keys.handle(.character("S")) == .redraw)
        #expect(monitor.table.sortTitle == "MEM% ▲")
        #expect(keys.handle(.character("p")) == .redraw)
        #expect(monitor.state.paused)
        #expect(keys.handle(.character("p")) == .redraw)
        #expect(!monitor.state.paused)
        #expect(keys.handle(.character("x")) == .ignored)
        #expect(keys.handle(.escape) == .ignored)   // no filter to clear
        #expect(keys.handle(.redraw) == .fullRedraw)
        #expect(keys.handle(.character("/")) == .redraw)
        #expect(field.isEditing)
        #expect(keys.handle(.character("q")) == .redraw)   // typed into the filter
        #expect(field.text == "q")
        #expect(keys.handle(.interrupt) == .quit)   // Ctrl-C quits even while typing
        #expect(keys.handle(.enter) == .redraw)
        #expect(keys.handle(.character("q")) == .quit)
    }

    @Test func typingAFilterNarrowsTheTableLive() throws {
        let (keys, monitor, field, view) = try controller()
        _ = keys.handle(.character("/"))
        _ = keys.handle(.character("s"))
        #expect(monitor.table.filter == "s")
        #expect(view.rows.map(\.pid) == [9612, 3, 9609, 9610])   // "sh", "[pool_workqueue_release]", "sleep" twice
        _ = keys.handle(.character("l"))
        #expect(monitor.table.filter == "sl")
        #expect(view.rows.map(\.pid) == [9609, 9610])
        #expect(keys.handle(.backspace) == .redraw)
        #expect(view.rows.map(\.pid) == [9612, 3, 9609, 9610])
        #expect(keys.handle(.escape) == .redraw)   // Esc clears and stops typing
        #expect(field.text == "")
        #expect(!field.isEditing)
        #expect(monitor.table.filter == "")
        #expect(view.rows.count == 7)
    }

    @Test func enterKeepsTheFilterAndEscClearsItLater() throws {
        let (keys, monitor, field, _) = try controller()
        for key in [Key.character("/"), .character("t"), .character("a"), .enter] { _ = keys.handle(key) }
        #expect(!field.isEditing)
        #expect(monitor.table.filter == "ta")
        #expect(monitor.table.rows.map(\.pid) == [9611])   // "tail"
        #expect(keys.handle(.character("s")) == .redraw)   // a command again, not text
        #expect(monitor.table.filter == "ta")
        #expect(keys.handle(.escape) == .redraw)
        #expect(monitor.table.filter == "")
        #expect(field.text == "")
    }

    @Test func scrollingKeys() throws {
        let (keys, _, _, view) = try controller()
        var frame = Frame(size: TerminalSize(width: 40, height: 4))
        view.draw(into: &frame, row: 0, height: 4)   // a header and 3 of the 7 rows
        #expect(keys.handle(.down) == .redraw)
        #expect(view.scrollOffset == 1)
        _ = keys.handle(.pageDown)   // a page is 2 rows (3 shown, one kept)
        #expect(view.scrollOffset == 3)
        _ = keys.handle(.end)
        #expect(view.scrollOffset == 4)   // the last 3 rows
        _ = keys.handle(.down)
        #expect(view.scrollOffset == 4)
        _ = keys.handle(.pageUp)
        #expect(view.scrollOffset == 2)
        _ = keys.handle(.home)
        #expect(view.scrollOffset == 0)
        _ = keys.handle(.up)
        #expect(view.scrollOffset == 0)
    }
}
