// bindings-demo: a live terminal process monitor built on Bindings. Everything is in the
// ProcessMonitor target (readers of /proc, models, views, terminal renderer), where the
// tests reach it; this file only hands it the command line.

import ProcessMonitor

MonitorMain.run(arguments: Array(CommandLine.arguments.dropFirst()))
