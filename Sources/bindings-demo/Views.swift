// Terminal views: plain `BindingOwner`s whose `text` is a binding target. A view owns its
// bindings (`subscriptions`), so releasing the view ends them.

import Bindings
#if canImport(Glibc)
import Glibc
#endif

final class TextView: BindingOwner {
    var text: String?
    var subscriptions = Set<AnyCancellable>()
}

/// A view that is shown for a while, then dismissed.
final class BannerView: BindingOwner {
    var text: String?
    var subscriptions = Set<AnyCancellable>()
}

/// Draws the views: in place on a terminal, as one plain line per update otherwise.
final class Screen {
    let load = TextView()
    let memory = TextView()
    let processes = TextView()
    let uptime = TextView()
    var banner: BannerView?
    private let interactive: Bool

    init(interactive: Bool) {
        self.interactive = interactive
        if interactive { write("\u{1B}[?25l") }   // hide the cursor while drawing
    }

    func render() {
        let rows = [load, memory, processes, uptime].map { $0.text ?? "" }
        if interactive {
            let title = banner?.text ?? "Bindings demo: Ctrl-C to quit"
            write("\u{1B}[H\u{1B}[2J" + ([title, ""] + rows).joined(separator: "\n") + "\n")
        } else {
            // Written at once, not through `print`, whose output is buffered when it is
            // not a terminal: a reader of the pipe (`bindings-demo | head -2`) gets each
            // line as it is made.
            write(rows.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
                .joined(separator: " | ") + "\n")
        }
    }

    /// Leaves the terminal as it was found.
    func restore() {
        if interactive { write("\u{1B}[?25h\n") }
    }

    private func write(_ string: String) {
        var string = string
        string.withUTF8 { _ = Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    }
}
