#!/usr/bin/env bash
cd "$(dirname "$0")/.."
R="bash scripts/gpu-run.sh run"
rm -rf ~/.cache/tessera/profiles
$R gen ssb --sf 1 --db /tmp/ssb1 > /dev/null 2>&1
$R gen ssb --sf 20 --db /tmp/ssb20 > /dev/null 2>&1
( time timeout 150 $R tune --db /tmp/ssb1 --workload ssb --query q3.1 --strategy feature-wise --device gpu --rounds 3 ) > $OUT/tune1.txt 2>&1
( time timeout 300 $R tune --db /tmp/ssb20 --workload ssb --query q1.1,q3.1 --strategy feature-wise --device gpu --rounds 3 ) > $OUT/tune20.txt 2>&1
( time timeout 120 $R bench ssb --db /tmp/ssb20 --sf 20 --device gpu --no-jvm --runs 5 ) > $OUT/bench20.txt 2>&1
cut -c1-400 $OUT/tune1.txt | tail -12; cut -c1-400 $OUT/tune20.txt | tail -12; tail -20 $OUT/bench20.txt
