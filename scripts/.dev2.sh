t0=$(date +%s)
T() { echo "[t+$(( $(date +%s) - t0 ))s] $*"; }
R() { bash scripts/gpu-run.sh run "$@"; }
export TESSERA_HEAP=64g
T gen; R gen ssb --sf 20 --db /tmp/ssb20 > $OUT/gen.txt 2>&1; tail -1 $OUT/gen.txt
T bench; R bench ssb --db /tmp/ssb20 --sf 20 --device gpu --runs 5 --no-jvm 2>&1 | tee $OUT/bench20.txt | grep -v WARN
for g in agg=dense agg=wglocal agg=wglocal,tpb=1024 agg=wglocal,tpb=256,grid=p8 agg=shared agg=dense,ipt=8 agg=wglocal,ipt=8; do
  T "sweep $g"; R bench ssb --db /tmp/ssb20 --sf 20 --device gpu --runs 5 --no-jvm --query q2.1,q3.1,q3.2,q4.1,q4.2 --cuda-genome $g 2>&1 | grep -E "^q|geomean"
done
T tune; timeout 240 bash scripts/gpu-run.sh run bench tuning --db /tmp/ssb20 --sf 20 --device gpu --query q3.1 --rounds 3 > $OUT/tune31.txt 2>&1; tail -30 $OUT/tune31.txt
T done
