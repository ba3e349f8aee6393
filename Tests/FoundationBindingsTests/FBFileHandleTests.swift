import Bindings
import BindingsTestSupport
import Foundation
import Testing
@testable import FoundationBindings

@Suite("FoundationBindings: FileHandle")
struct FBFileHandleTests {
    private func write(_ text: String, to pipe: Pipe) {
        pipe.fileHandleForWriting.write(Data(text.utf8))
    }

    @Test func linesSplitAcrossWritesArriveWholeAndTheLastLineWithoutNewlineToo() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.lines.subscribe(recorder)
        write("one\ntwo\nthr", to: pipe)
        #expect(recorder.wait { $0.count == 2 })
        write("ee\n\nla", to: pipe)
        #expect(recorder.wait { $0.count == 4 })
        write("st", to: pipe)
        try pipe.fileHandleForWriting.close()
        #expect(recorder.wait { $0.last == .finished })
        #expect(recorder.events == [.value("one"), .value("two"), .value("three"), .value(""), .value("last"), .finished])
    }

    @Test func linesHonourDemandAndTheRestWaitsInThePipe() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<String, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.lines.subscribe(recorder)
        write("1\n2\n3\n4\n", to: pipe)
        #expect(recorder.wait { $0.count == 1 })
        usleep(20_000)
        #expect(recorder.values == ["1"])
        recorder.request(.max(2))
        // Lines of the chunk already read, delivered inside request(_:).
        #expect(recorder.values == ["1", "2", "3"])
        write("5\n", to: pipe)
        usleep(20_000)
        #expect(recorder.values == ["1", "2", "3"])
        try pipe.fileHandleForWriting.close()
        recorder.request(.unlimited)
        #expect(recorder.wait { $0.last == .finished })
        #expect(recorder.events == [.value("1"), .value("2"), .value("3"), .value("4"), .value("5"), .finished])
    }

    @Test func dataIsNotReadWithoutDemand() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<Data, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.data.subscribe(recorder)
        write("abc", to: pipe)
        #expect(recorder.wait { $0.count == 1 })
        write("def", to: pipe)
        usleep(20_000)
        #expect(recorder.values == [Data("abc".utf8)])
        recorder.request(.max(1))
        #expect(recorder.wait { $0.count == 2 })
        #expect(recorder.values == [Data("abc".utf8), Data("def".utf8)])
        // The end of the file needs no demand.
        try pipe.fileHandleForWriting.close()
        #expect(recorder.wait { $0.count == 3 })
        #expect(recorder.events == [.value(Data("abc".utf8)), .value(Data("def".utf8)), .finished])
    }

    @Test func afterTheWriterClosesTheRestWaitsForDemandThenTheStreamFinishes() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<String, Never>(initialDemand: .max(1), releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.lines.subscribe(recorder)
        write("1\n", to: pipe)
        #expect(recorder.wait { $0.count == 1 })
        write("2\n3", to: pipe)
        try pipe.fileHandleForWriting.close()
        usleep(20_000)
        #expect(recorder.events == [.value("1")])
        recorder.request(.max(1))
        #expect(recorder.wait { $0.count == 2 })
        #expect(recorder.events == [.value("1"), .value("2")])
        recorder.request(.max(1))
        #expect(recorder.wait { $0.count == 4 })
        #expect(recorder.events == [.value("1"), .value("2"), .value("3"), .finished])
    }

    @Test func aRegularFileIsReadToItsEnd() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("FBFileHandleTests-\(UUID().uuidString)")
        try Data("x\ny\n\u{e9}\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        handle.reactive.lines.subscribe(recorder)
        #expect(recorder.wait { $0.last == .finished })
        #expect(recorder.events == [.value("x"), .value("y"), .value("\u{e9}"), .finished])
        #expect(recorder.deliveryContexts.allSatisfy { pthread_equal($0.thread, pthread_self()) == 0 })
    }

    @Test func cancelStopsReadingLeavesTheRestInThePipeAndReleasesTheSubscription() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<String, Never>(releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.lines.subscribe(recorder)
        write("a\n", to: pipe)
        #expect(recorder.wait { $0.count == 1 })
        weak let subscription = recorder.subscription as AnyObject?
        recorder.cancel()
        write("b\n", to: pipe)
        try pipe.fileHandleForWriting.close()
        #expect(eventually { subscription == nil })
        #expect(recorder.events == [.value("a")])
        // Nobody read "b\n".
        #expect(try pipe.fileHandleForReading.readToEnd() == Data("b\n".utf8))
    }

    @Test func aSubscriptionReleasesItselfAfterTheEndOfTheFile() throws {
        let pipe = Pipe()
        let recorder = TestRecorder<Data, Never>(releasesSubscription: [.onCompletion, .onCancel])
        pipe.fileHandleForReading.reactive.data.subscribe(recorder)
        weak let subscription = recorder.subscription as AnyObject?
        try pipe.fileHandleForWriting.close()
        #expect(recorder.wait { $0 == [.finished] })
        #expect(eventually { subscription == nil })
    }
}

@Suite("FoundationBindings: LineFramer")
struct FBLineFramerTests {
    private func frame(_ chunks: [[UInt8]]) -> [String] {
        var framer = LineFramer()
        var lines: [String] = []
        for chunk in chunks {
            chunk.withUnsafeBytes { framer.frame($0, into: &lines) }
        }
        framer.finish(into: &lines)
        return lines
    }

    @Test func splitsAtNewlinesAcrossChunks() {
        #expect(frame([Array("a\nb".utf8), Array("c\n\nd".utf8)]) == ["a", "bc", "", "d"])
    }

    @Test func aFinalNewlineAddsNoEmptyLineAndAnEmptyInputNoLine() {
        #expect(frame([Array("a\n".utf8)]) == ["a"])
        #expect(frame([]) == [])
        #expect(frame([Array("\n".utf8)]) == [""])
    }

    @Test func aCharacterSplitBetweenChunksIsDecodedWholeAndCarriageReturnsAreKept() {
        let bytes = Array("caf\u{e9}\r\n".utf8)
        #expect(frame([Array(bytes[..<4]), Array(bytes[4...])]) == ["caf\u{e9}\r"])
    }
}
