import Testing
import ProcessMonitor

/// The figures as the views write them.
@Suite struct FormatTests {
    @Test func decimals() {
        #expect(Format.decimal(0.333, places: 2) == "0.33")
        #expect(Format.decimal(1.005, places: 1) == "1.0")
        #expect(Format.decimal(12, places: 1) == "12.0")
        #expect(Format.decimal(-0.25, places: 1) == "-0.3")
        #expect(Format.decimal(99.96, places: 1) == "100.0")
    }

    @Test func percentsInTenths() {
        #expect(Format.tenths(0) == "0.0")
        #expect(Format.tenths(1132) == "113.2")
        #expect(Format.tenths(9999) == "999.9")
        #expect(Format.tenths(16004) == "1600")   // five columns at most
    }

    @Test func sizes() {
        #expect(Format.kibibytes(0) == "0")
        #expect(Format.kibibytes(512) == "512K")
        #expect(Format.kibibytes(1424) == "1.4M")
        #expect(Format.kibibytes(336712) == "329M")
        #expect(Format.kibibytes(24684084) == "23.5G")
        #expect(Format.kibibytes(1024 * 1024 * 1024 * 3) == "3.0T")
    }

    @Test func durations() {
        #expect(Format.duration(seconds: 37740.42) == "10h 29m 0s")
        #expect(Format.duration(seconds: 3 * 86_400 + 4 * 3_600 + 5 * 60 + 6) == "3d 4h 5m 6s")
        #expect(Format.duration(seconds: -1) == "0h 0m 0s")
    }

    @Test func sparklines() {
        #expect(Format.sparkline([0, 1, 2, 4], floor: 1) == "▁▃▅█")
        #expect(Format.sparkline([0.5, 0.5], floor: 2) == "▃▃")   // below the floor: low
        #expect(Format.sparkline([0, 0], floor: 0) == "▁▁")
        #expect(Format.sparkline([], floor: 1) == "")
    }
}
