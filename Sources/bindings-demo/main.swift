// bindings-demo: a live terminal dashboard of this machine, written the way an app using
// Bindings is written. The model (Models.swift) is updated from /proc by a background
// timer; small terminal views (Views.swift) are bound to its computed properties with
// `<~`; the welcome banner is dismissed after a few seconds and its bindings end with it.

import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

switch Options.parse(Array(CommandLine.arguments.dropFirst())) {
case .run(let options):
    Dashboard(options: options, interactive: isatty(STDOUT_FILENO) != 0).start()
    dispatchMain()
case .help:
    print(Options.usage)
case .invalid(let message):
    FileHandle.standardError.write(Data("bindings-demo: \(message) (try --help)\n".utf8))
    exit(2)
}
