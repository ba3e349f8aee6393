// Wires the model to the views and drives the app: a timer refreshes the model, a signal
// ends the program cleanly.

import Bindings
import Dispatch
import FoundationBindings
#if canImport(Glibc)
import Glibc
#endif

final class Dashboard: @unchecked Sendable {
    // `@unchecked Sendable`: `machine`, `screen`, `banner` and `running` are only touched
    // on `queue` after `init` (`start()` enters it with `sync`); `queue`, `options`: `let`s
    // of `Sendable` types. That is how a model confined to one thread is used.
    private let queue = DispatchQueue(label: "bindings-demo")
    private let options: Options
    private let machine = Machine()
    private let screen: Screen
    private var banner: BannerView? = BannerView()
    private var running = Set<AnyCancellable>()

    init(options: Options, interactive: Bool) {
        self.options = options
        screen = Screen(interactive: interactive)
    }

    func start() {
        queue.sync {
            bindViews()
            machine.refresh()
            screen.render()
            startTimers()
        }
    }

    /// Views are bound once; from then on every model change reaches them by itself.
    private func bindViews() {
        screen.load.reactive.text <~ machine.reactive.loadSummary
        screen.memory.reactive.text <~ machine.reactive.memorySummary
        screen.processes.reactive.text <~ machine.reactive.processSummary
        screen.uptime.reactive.text <~ machine.reactive.uptimeSummary
        if let banner {
            banner.reactive.text <~ machine.reactive.hostname.map { "Bindings demo on \($0): Ctrl-C to quit" }
            screen.banner = banner
        }
    }

    private func startTimers() {
        // The refresh timer fires on `queue`, where the model lives.
        queue.reactive.timer(every: .milliseconds(options.intervalMilliseconds))
            .sink { [self] _ in
                machine.refresh()
                screen.render()
            }
            .store(in: &running)

        // Dismissing the banner releases the view, which ends its bindings.
        queue.asyncAfter(deadline: .now() + 3) { [self] in
            screen.banner = nil
            banner = nil
        }

        DispatchSource.reactive.signals(SIGINT, SIGTERM)
            .sink { [self] _ in queue.async { self.finish() } }
            .store(in: &running)

        if let duration = options.duration {
            queue.asyncAfter(deadline: .now() + duration) { [self] in finish() }
        }
    }

    /// A clean exit: timers stopped, terminal restored.
    private func finish() -> Never {
        running.removeAll()
        screen.restore()
        exit(0)
    }
}
