// compare: Bindings against OpenCombine, in one process, interleaved.
//
//     swift run -c release --package-path Benchmarks compare [--json PATH] [--rounds N]
//
// What each figure measures is printed under the tables and in Docs/Performance.md.

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

var jsonPath: String?
var rounds = 7
var only: String?
var singleThreaded = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--json":
        jsonPath = arguments.popFirst()
    case "--rounds":
        rounds = arguments.popFirst().flatMap { Int($0) } ?? rounds
    case "--only":
        only = arguments.popFirst()
    case "--single-threaded":
        singleThreaded = true
    case "--help", "-h":
        print("""
            usage: compare [--json PATH] [--rounds N] [--only KEY] [--single-threaded]
              --json PATH   also write the headline figures as JSON
              --rounds N    interleaved rounds (default 7)
              --only KEY    run one comparison, for profiling: set_notify, set_unobserved,
                            set_after_observers_left, per_subscriber, subscribe_cancel, nested,
                            subject, computed, generic_sink, observe, binding, floors, wide,
                            cancel_one, bind_lifted, struct_set_notify,
                            increment_set_notify, bind_create_release, computed_bind, computed_observe,
                            computed_subscribe_cancel, computed_subscribe_cancel_set,
                            observe_old_new, observable_value, chain_map_filter,
                            many_models, batch_2_sets_computed, autorun,
                            observable_array_append, pipeline_5_stages,
                            share_10_subscribers, share_10_subscribers_with_completion,
                            main_actor_sink, main_actor_observe, main_actor_bind,
                            main_actor_listener, main_actor_sink_completion, listener,
                            two_way_set_left, two_way_set_right, bind_into_model_owner, bind_map,
                            inline_bind, observe_array_append, bind_new_model,
                            receive_on_immediate, assign, assign_to_property, flat_map_just,
                            combine_latest, merge, memory
              --single-threaded
                            measure in a process that never started a second thread
                            (glibc then skips the atomic instructions of its mutexes; no
                            application that uses Dispatch or a timer runs that way)
            Build in release: swift run -c release --package-path Benchmarks compare
            """)
        exit(0)
    default:
        writeToStandardError("compare: unknown argument \(argument)\n")
        exit(2)
    }
}

// An application that uses Dispatch, a timer or a second thread is multi-threaded, and
// glibc's mutexes cost their atomic instructions only from the moment a process starts
// a second thread (before that, they skip the lock prefix). Measure as such an
// application runs: start one thread and let it end.
if !singleThreaded { startAndJoinAThread() }

let startedAt = monotonicNanoseconds()
var (report, mainActorOnMainThread) = runComparison(rounds: max(1, rounds), only: only, multiThreaded: !singleThreaded)

/// Prints the report, writes the JSON, and ends the process.
@MainActor
func finish(_ report: ComparisonReport) -> Never {
    print(report.text)
    if let jsonPath {
        guard write(report.json.render(), toFile: jsonPath) else {
            progress("could not write \(jsonPath)")
            exit(1)
        }
        progress("wrote \(jsonPath)")
    }
    progress("finished in \(Double((monotonicNanoseconds() - startedAt) / 100_000_000) / 10) s")
    exit(0)
}

// The main-actor comparisons again, where an `async` main runs its main actor: in a block
// of the main queue on a worker thread, once `dispatchMain()` has parked the main thread
// (which then runs no more code: this is the last measurement).
let mainActorKeys = Set(mainActorOnMainThread.map(\.key))
guard only == nil || mainActorKeys.contains(only!) else {
    report.addMainActorTable(onMainThread: mainActorOnMainThread, onWorker: nil)
    finish(report)
}
DispatchQueue.main.async {
    MainActor.assumeIsolated {
        progress("main actor, in a main-queue block on a worker thread")
        let onWorker = MainActorCases.comparisons(Counter()).filter { only == nil || $0.key == only }
        measure(onWorker, rounds: max(1, rounds), batches: batchesPerRound, targetNanoseconds: batchNanoseconds, progress: progress)
        report.addMainActorTable(onMainThread: mainActorOnMainThread, onWorker: onWorker)
        finish(report)
    }
}
dispatchMain()
