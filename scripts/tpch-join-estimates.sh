#!/usr/bin/env bash
# For each of the 22 TPC-H queries, the worst ratio of estimated to actual rows over its joins, as EXPLAIN ANALYZE
# sums it up (max(estimate/actual, actual/estimate) over the PROBE operators, each side at least one row).
#   scripts/tpch-join-estimates.sh DB        e.g. after ./tessera gen tpch --sf 0.1 --db /tmp/tpch01
# Extra arguments go to `tessera sql` (e.g. --device gpu). Prints one line per query, then their geometric mean.
# TESSERA_CMD runs tessera another way (on the GPU machine: TESSERA_CMD="bash scripts/gpu-run.sh run").
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
db=${1:?usage: scripts/tpch-join-estimates.sh DB [tessera sql options]}
shift
queries=$root/src/main/resources/io/tessera/queries/tpch
script=$(mktemp)
trap 'rm -f "$script"' EXIT
for n in $(seq 1 22); do
  f=$queries/q$n.sql
  [[ -f $f ]] || f=$queries/Q$n.sql
  printf 'EXPLAIN ANALYZE %s;\n' "$(sed -e 's/;[[:space:]]*$//' "$f")" >>"$script"
done
read -ra tessera <<<"${TESSERA_CMD:-$root/tessera}"
"${tessera[@]}" sql --db "$db" --format csv "$@" <"$script" | awk '
  /^"?joins: / {
    q++
    line = $0; gsub(/"/, "", line)
    ratio = "-"
    if (match(line, /ratio [0-9.]+/)) { ratio = substr(line, RSTART + 6, RLENGTH - 6); logs += log(ratio); counted++ }
    printf "Q%-3d %8s   %s\n", q, ratio, line
  }
  END { if (counted > 0) printf "geomean of the worst ratios over %d queries with joins: %.2f\n", counted, exp(logs / counted) }'
