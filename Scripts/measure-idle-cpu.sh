#!/usr/bin/env bash
# Measures the monitor's own CPU use on a terminal: a run of SECONDS (default 60) on a
# pseudo-terminal made by script(1), timed by /usr/bin/time (user + system CPU of the
# monitor alone), as a share of one core.
#
#     Scripts/measure-idle-cpu.sh [SECONDS] [-c release]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
configuration=${3:-debug}
swift build -c "$configuration" --product bindings-demo >/dev/null
demo="$(swift build -c "$configuration" --product bindings-demo --show-bin-path)/bindings-demo"
times=$(mktemp)
TERM=xterm-256color script -qec "/usr/bin/time -f '%U %S' -o $times $demo --duration $seconds" /dev/null > /dev/null < /dev/null
read -r user system < "$times"
rm -f "$times"
awk -v u="$user" -v s="$system" -v t="$seconds" -v c="$configuration" 'BEGIN {
    printf "bindings-demo (%s build), %d s on a terminal: %.2f s user + %.2f s system CPU = %.2f%% of one core\n", c, t, u, s, (u + s) / t * 100
}'
