#if canImport(Glibc)
import Glibc
#endif

/// The monitor off a terminal: one plain line per refresh, no escape codes, until the
/// duration runs out (or the pipe closes: `bindings-demo | head -2` ends at the write
/// after `head` is done, by SIGPIPE or a failed write).
package struct PlainRunner {
    /// The monitor refreshed.
    package let monitor: Monitor
    /// The options run with.
    package let options: Options

    /// A runner of `monitor`.
    package init(monitor: Monitor, options: Options) {
        self.monitor = monitor
        self.options = options
    }

    /// Refreshes and prints until the end; returns the exit status.
    package func run() -> Int32 {
        let start = Clock.now()
        var next = start
        while true {
            do {
                try monitor.refresh()
            } catch {
                FileOutput.write("bindings-demo: \(error.description)\n", to: STDERR_FILENO)
                return 1
            }
            // Written at once, not through `print`, whose output is buffered when it is
            // not a terminal: a reader of the pipe gets each line as it is made.
            guard FileOutput.write(monitor.system.summaryLine + "\n", to: STDOUT_FILENO) else { return 0 }
            next += options.interval
            if let duration = options.duration, next > start + duration {
                Clock.sleep(until: start + duration)
                return 0
            }
            Clock.sleep(until: next)
        }
    }
}

/// The monotonic clock, in seconds.
package enum Clock {
    /// Now.
    package static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Sleeps (blocked in the kernel, no spinning) until `deadline`.
    package static func sleep(until deadline: Double) {
        while case let remaining = deadline - now(), remaining > 0 {
            var request = timespec(tv_sec: Int(remaining), tv_nsec: Int((remaining - Double(Int(remaining))) * 1e9))
            nanosleep(&request, nil)
        }
    }

    /// The CPU time the process has used, in seconds.
    package static func processCPUTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
