#!/usr/bin/env bash
# SSB end to end against kernel time on the GPU, CUDA graphs off and on (issue 36, item 6: every query's e2e within
# 1.25 x its kernel time + 0.2 ms), and the answers of SSB with graphs on against the JVM backend's.
#
#   here:        scripts/gpu-run.sh prepare
#   on the GPU:  the device tool's run with carry [".device"] and the command
#                    bash scripts/gpu-e2e-check.sh
#
# Generates SSB SF 20 into /tmp/ssb20 when it is missing, runs `bench ssb --device gpu --no-jvm --runs 9` with graphs
# off and then on (-Dtessera.gpu.graphs), then `selftest --device gpu --sf 1 --tpch-sf 0 --no-variants --repeat 3`
# with graphs on (each GPU query run three times, every answer compared: the first run captures a graph, the later
# ones launch it again), and prints a table of both benchmarks last. About 4 to 6 minutes on an H200.
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
logs=${OUT:-/tmp}/gpu-e2e
mkdir -p "$logs"
run() { bash scripts/gpu-run.sh run "$@"; }
start=$SECONDS

if [[ ! -d /tmp/ssb20 ]]; then
  echo "== generating SSB SF 20 into /tmp/ssb20"
  run gen ssb --sf 20 --db /tmp/ssb20 > "$logs/gen.log" 2>&1 || { tail -20 "$logs/gen.log"; exit 1; }
  echo "   done after $((SECONDS - start)) s"
fi

bench() { # $1: off or on
  echo "== bench ssb SF 20, graphs $1"
  TESSERA_JAVA_OPTS="-Dtessera.gpu.graphs=$1 ${TESSERA_JAVA_OPTS:-}" \
    run bench ssb --db /tmp/ssb20 --sf 20 --device gpu --no-jvm --runs 9 > "$logs/bench-$1.log" 2>&1
  local rc=$?
  grep -E '^(device|q[0-9]|geomean)|graph|rror' "$logs/bench-$1.log" | head -40
  echo "   rc $rc after $((SECONDS - start)) s"
}
bench off
bench on

echo "== selftest SSB SF 1, graphs on, each GPU query three times"
TESSERA_JAVA_OPTS="-Dtessera.gpu.graphs=on ${TESSERA_JAVA_OPTS:-}" \
  run selftest --device gpu --sf 1 --tpch-sf 0 --no-variants --repeat 3 --dir /tmp/gpu-e2e-selftest \
  > "$logs/selftest.log" 2>&1
selftest_rc=$?
grep -E '^(FAIL|selftest:|  DIFFERED|  on the JVM only|device )|graph' "$logs/selftest.log" | head -40
echo "   rc $selftest_rc after $((SECONDS - start)) s"

# the two benchmarks side by side: kernel and e2e ms, the target (1.25 x kernel + 0.2 ms) and whether e2e met it
echo
echo "== SSB SF 20: e2e against 1.25 x kernel + 0.2 ms (graphs off | graphs on)"
awk '
  FNR == 1 { file++ }
  /^q[0-9]/ { k[file, $1] = $2; e[file, $1] = $3; if (file == 1) order[++n] = $1 }
  END {
    printf "%-6s %9s %8s %8s %4s | %9s %8s %8s %4s\n", "query", "kernel", "e2e", "target", "met", "kernel", "e2e", "target", "met"
    for (i = 1; i <= n; i++) {
      q = order[i]; line = sprintf("%-6s", q)
      for (f = 1; f <= 2; f++) {
        t = 1.25 * k[f, q] + 0.2; ok = (e[f, q] ~ /^[0-9.]+$/ && e[f, q] + 0 <= t) ? "yes" : "NO"
        if (ok == "yes") met[f]++
        line = line sprintf(" %9.3f %8.3f %8.3f %4s", k[f, q], e[f, q], t, ok) (f == 1 ? " |" : "")
      }
      print line
    }
    printf "met: %d of %d with graphs off, %d of %d with graphs on\n", met[1], n, met[2], n
  }' "$logs/bench-off.log" "$logs/bench-on.log"
echo "selftest with graphs on: rc $selftest_rc ($(grep -m1 '^selftest:' "$logs/selftest.log" || echo 'no summary'))"
echo "total $((SECONDS - start)) s; logs in $logs"
