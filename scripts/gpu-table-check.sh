#!/usr/bin/env bash
# Checks on a GPU machine that queries whose GPU hash tables fill up end, and give the JVM's answer: TPC-H Q4, Q18,
# Q20 and Q13 at SF 0.1 and SF 10 (Q4's group table at SF 10 has about 15 million groups, more than its first
# table holds), each with `sql --device gpu --timing` under `timeout 120`, once with the tables sized from the
# estimates and once with -Dtessera.gpu.tableSlots=1024 (every hash table the GPU fills starts at 1,024 slots, so
# it fills up and runs again larger, or the query moves to the JVM with the reason), each answer compared with
# `--device cpu`'s (a diff of the CSV output). Last, a GPU query sent SIGTERM must end within 2 seconds.
# Prints one PASS/FAIL line per case; exits 1 when any failed. About 5 minutes on an H200 machine's 16 cores.
#
#   here:         scripts/gpu-run.sh prepare
#   on the GPU:   the device tool's run with carry [".device"] and the command
#       bash scripts/gpu-table-check.sh            (or SFS="0.1" bash scripts/gpu-table-check.sh)
#   The outputs and each run's stderr (timing, placement, fallback reasons) are kept under $OUT (or
#   /tmp/gpu-table-check).
set -uo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
out=${OUT:-/tmp/gpu-table-check}
mkdir -p "$out"
queries=(q4 q18 q20 q13)
tiny="-Dtessera.gpu.tableSlots=1024"
failures=0

# how tessera runs: through gpu-run.sh on the GPU machine (which execs java, so that timeout and kill reach the
# JVM); TESSERA_CMD names another launcher that execs it (a check of this script elsewhere)
read -r -a tessera <<< "${TESSERA_CMD:-bash $root/scripts/gpu-run.sh run}"

# the first line of a run's stderr that says where it ran, or why not on the GPU
where() {
  local line
  line=$(grep -m1 -E '^tessera: ' "$1")
  [[ -n $line ]] || line=$(grep -m1 -oE '\((gpu|gpu\+cpu): [0-9]+ of [0-9]+ pipelines' "$1" | tr -d '(')
  [[ -n $line ]] || line="on the JVM"
  echo "$line"
}

verdict() { # name status detail
  printf '%s %s %s\n' "$2" "$1" "$3"
  [[ $2 != FAIL ]] || failures=$((failures + 1))
}

for sf in ${SFS:-0.1 10}; do
  db=/tmp/tpch-table-check-sf$sf
  if [[ ! -f $db/.generated ]]; then
    rm -rf "$db"
    start=$SECONDS
    if ! "${tessera[@]}" gen tpch --db "$db" --sf "$sf" > "$out/gen-sf$sf.log" 2>&1; then
      verdict "gen tpch sf$sf" FAIL "(see $out/gen-sf$sf.log)"
      continue
    fi
    touch "$db/.generated"
    echo "-- generated TPC-H SF $sf in $((SECONDS - start)) s"
  fi
  for q in "${queries[@]}"; do
    sql=$(cat "src/main/resources/io/tessera/queries/tpch/$q.sql")
    name="tpch-sf$sf-$q"
    timeout -k 5 120 "${tessera[@]}" sql --db "$db" --device cpu --format csv -c "$sql" \
      > "$out/$name-cpu.csv" 2> "$out/$name-cpu.err"
    rc=$?
    if [[ $rc -ne 0 ]]; then
      verdict "$name cpu" FAIL "(exit $rc; see $out/$name-cpu.err)"
      continue
    fi
    for mode in estimated tiny; do
      opts=""
      [[ $mode == tiny ]] && opts=$tiny
      start=$SECONDS
      TESSERA_JAVA_OPTS="${TESSERA_JAVA_OPTS:-} $opts" timeout -k 5 120 "${tessera[@]}" \
        sql --db "$db" --device gpu --timing --format csv -c "$sql" \
        > "$out/$name-gpu-$mode.csv" 2> "$out/$name-gpu-$mode.err"
      rc=$?
      took=$((SECONDS - start))
      if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        verdict "$name gpu tables=$mode" FAIL "(no answer within 120 s)"
      elif [[ $rc -ne 0 ]]; then
        verdict "$name gpu tables=$mode" FAIL "(exit $rc: $(tail -1 "$out/$name-gpu-$mode.err"))"
      elif grep -q '^tessera: ran on the JVM: no GPU' "$out/$name-gpu-$mode.err"; then
        verdict "$name gpu tables=$mode" FAIL "($(grep -m1 '^tessera: ' "$out/$name-gpu-$mode.err"))"
      elif ! diff -q "$out/$name-cpu.csv" "$out/$name-gpu-$mode.csv" > /dev/null; then
        verdict "$name gpu tables=$mode" FAIL "(answer differs from the JVM's: diff $out/$name-cpu.csv $out/$name-gpu-$mode.csv)"
      else
        verdict "$name gpu tables=$mode" PASS "(${took} s; $(where "$out/$name-gpu-$mode.err"))"
      fi
    done
  done
done

# SIGTERM during a GPU query at the largest scale: the process must end within 2 seconds of the signal
big=$(for sf in ${SFS:-0.1 10}; do echo "$sf"; done | sort -g | tail -1)
db=/tmp/tpch-table-check-sf$big
if [[ -f $db/.generated ]]; then
  sql=$(cat src/main/resources/io/tessera/queries/tpch/q18.sql)
  TESSERA_JAVA_OPTS="${TESSERA_JAVA_OPTS:-} $tiny" "${tessera[@]}" \
    sql --db "$db" --device gpu --timing --format csv -c "$sql" > "$out/sigterm.csv" 2> "$out/sigterm.err" &
  pid=$!
  sleep 4
  if kill -0 "$pid" 2> /dev/null; then
    sent=$(date +%s%N)
    kill -TERM "$pid"
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2> /dev/null; then
      kill -KILL "$pid" 2> /dev/null
      verdict "sigterm tpch-sf$big-q18 gpu" FAIL "(still running 5 s after SIGTERM)"
    else
      ms=$((($(date +%s%N) - sent) / 1000000))
      if [[ $ms -le 2000 ]]; then
        verdict "sigterm tpch-sf$big-q18 gpu" PASS "(ended $ms ms after SIGTERM)"
      else
        verdict "sigterm tpch-sf$big-q18 gpu" FAIL "(ended $ms ms after SIGTERM)"
      fi
    fi
    wait "$pid" 2> /dev/null
  else
    wait "$pid" 2> /dev/null
    verdict "sigterm tpch-sf$big-q18 gpu" SKIP "(the query ended within 4 s, before the signal)"
  fi
fi

echo "-- $failures failed; outputs in $out"
[[ $failures -eq 0 ]]
