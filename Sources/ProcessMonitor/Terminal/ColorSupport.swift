/// How the monitor may draw, decided from the environment.
package struct DisplayCapabilities: Equatable, Sendable {
    /// The terminal can move its cursor (so the interactive monitor can run): not
    /// `TERM=dumb`, and `TERM` set.
    package var cursorAddressing: Bool
    /// Colours may be used: the terminal can address its cursor and `NO_COLOR` is unset
    /// or empty (see no-color.org).
    package var colors: Bool

    /// The capabilities the environment `environment` (`TERM`, `NO_COLOR`) allows.
    package init(environment: [String: String]) {
        let term = environment["TERM"] ?? ""
        cursorAddressing = !term.isEmpty && term != "dumb"
        colors = cursorAddressing && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
