#!/usr/bin/env bash
# Profiles one comparison of `compare` with perf (software clock sampling, which works in
# VMs without hardware counters) and prints the top symbols by self time, counting only
# the samples whose call stack passes through a function that matches FILTER, by
# default Bindings' operation functions (so OpenCombine's side is left out).
#
#     Benchmarks/Scripts/profile.sh KEY [FILTER] [ROUNDS]
#     Benchmarks/Scripts/profile.sh set_notify
#     Benchmarks/Scripts/profile.sh set_notify openCombine
#
# Keys: see `compare --help`. Needs perf (Debian: linux-perf). Builds in release first.
set -euo pipefail
key=${1:?usage: profile.sh KEY [FILTER] [ROUNDS]}
filter=${2:-'compare[0-9]+(bindings|setOneOfWide)'}
rounds=${3:-40}
cd "$(dirname "$0")/.."
swift build -c release >/dev/null
data=$(mktemp /tmp/compare-perf.XXXXXX)
trap 'rm -f "$data"' EXIT
perf record -F 4999 -g -o "$data" .build/release/compare --only "$key" --rounds "$rounds" >/dev/null 2>&1
perf script -i "$data" -F ip,sym 2>/dev/null | awk -v filter="$filter" '
    function flush() {
        if (leaf != "" && matched) { count[leaf]++; total++ }
        leaf = ""; matched = 0; first = 1
    }
    BEGIN { first = 1 }
    /^[[:space:]]*$/ { flush(); next }
    {
        sym = $2; for (i = 3; i <= NF; i++) sym = sym " " $i
        if (first) { leaf = sym; first = 0 }
        if (sym ~ filter) matched = 1
    }
    END {
        flush()
        printf "%d samples through /%s/\n", total, filter
        for (s in count) printf "%6.2f%%  %s\n", 100 * count[s] / total, s
    }' | sort -t% -k1 -rn | head -25 | cut -c1-170
