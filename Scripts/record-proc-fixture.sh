#!/usr/bin/env bash
# Records /proc fixtures for the ProcessMonitor tests and the refresh benchmark: three
# samples of this machine, one second apart (DEST/t0, t1, t2), each a system root
# (proc/ and etc/passwd) that `bindings-demo --root` and `ProcReader(root:)` read.
#
#     Scripts/record-proc-fixture.sh DEST [--synthetic COUNT]
#
# Recorded: the system files (stat, meminfo, loadavg, uptime, the host name), the kernel
# threads, and four processes the script starts with known command lines and users (a
# busy loop, two sleeps, a tail), so that no other process of the machine is recorded.
# With --synthetic, COUNT made-up processes (pids from 20000, users ada, grace and alan)
# are added, a tenth of them busy between the samples (by varying amounts): the
# benchmark's 500-process load.
# Linux only; run as root (the processes run as other users through setpriv).
set -euo pipefail
dest=${1:?usage: record-proc-fixture.sh DEST [--synthetic COUNT]}
synthetic=0
if [ "${2:-}" = "--synthetic" ]; then synthetic=${3:?--synthetic needs a count}; fi

sleep 600 & root_sleep=$!
setpriv --reuid=65534 --regid=65534 --clear-groups sleep 601 & nobody_sleep=$!
setpriv --reuid=1 --regid=1 --clear-groups tail -f /dev/null & daemon_tail=$!
sh -c 'while :; do :; done' & busy=$!
trap 'kill $root_sleep $nobody_sleep $daemon_tail $busy 2>/dev/null || true' EXIT
sleep 1

# The kernel threads: kthreadd (pid 2) and its children.
kernel=$(awk '$4 == 2 || $1 == 2 { print $1 }' /proc/[0-9]*/stat 2>/dev/null | sort -n)
if [ "$synthetic" -eq 0 ]; then kernel=$(echo "$kernel" | head -3); fi
pids="$kernel $root_sleep $nobody_sleep $daemon_tail $busy"

users=(ada grace alan)
commands=("/usr/bin/python3 -m http.server 8000" "postgres: checkpointer" "nginx: worker process"
          "/usr/lib/systemd/systemd-journald" "-bash" "/usr/sbin/sshd -D" "node /srv/app/server.js"
          "/usr/bin/redis-server 127.0.0.1:6379")

record() {   # record SAMPLE_DIR SAMPLE_INDEX
    local root=$1 sample=$2
    mkdir -p "$root/proc/sys/kernel" "$root/etc"
    for file in stat meminfo loadavg uptime; do cat "/proc/$file" > "$root/proc/$file"; done
    cat /proc/sys/kernel/hostname > "$root/proc/sys/kernel/hostname"
    for pid in $pids; do
        mkdir -p "$root/proc/$pid"
        for file in stat status cmdline; do cat "/proc/$pid/$file" > "$root/proc/$pid/$file"; done
    done
    {
        grep -E '^(root|daemon|nobody):' /etc/passwd
        printf '%s:x:%d:%d::/home/%s:/bin/bash\n' ada 1000 1000 ada grace 1001 1001 grace alan 1002 1002 alan
    } > "$root/etc/passwd"
    for (( i = 0; i < synthetic; i++ )); do
        local pid=$(( 20000 + i )) uid=$(( 1000 + i % 3 )) threads=$(( 1 + i % 7 ))
        local command=${commands[$(( i % ${#commands[@]} ))]}
        local name=${command##*/}; name=${name%% *}; name=${name:0:15}
        local ticks=$(( (i * 37) % 5000 ))
        local rss=$(( 200 + (i * 131) % 90000 ))
        local state=S
        if (( i % 10 == 0 )); then   # busy: 20 to 80 ticks more in each sample
            for (( s = 1; s <= sample; s++ )); do ticks=$(( ticks + 20 + (i * 7 + s * 13) % 60 )); done
            state=R
        fi
        local start=$(( 3000000 - i * 10 ))   # the same in both samples: the same process
        mkdir -p "$root/proc/$pid"
        echo "$pid ($name) $state 1 $pid $pid 0 -1 4194560 100 0 0 0 $(( ticks * 2 / 3 )) $(( ticks - ticks * 2 / 3 )) 0 0 20 0 $threads 0 $start $(( rss * 4096 * 3 )) $rss 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 $(( i % 2 )) 0 0 0 0 0" > "$root/proc/$pid/stat"
        printf 'Name:\t%s\nState:\t%s\nPid:\t%d\nUid:\t%d\t%d\t%d\t%d\nThreads:\t%d\n' \
            "$name" "$state" "$pid" "$uid" "$uid" "$uid" "$uid" "$threads" > "$root/proc/$pid/status"
        printf '%s' "$command" | tr ' ' '\0' > "$root/proc/$pid/cmdline"
    done
}

rm -rf "$dest"
record "$dest/t0" 0
sleep 1
record "$dest/t1" 1
sleep 1
record "$dest/t2" 2
echo "recorded $(ls -d "$dest"/t0/proc/[0-9]* | wc -l) processes in $dest/t0, t1 and t2"
