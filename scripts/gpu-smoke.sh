#!/usr/bin/env bash
# Runs GpuSmokeCheck, the end-to-end check of the CUDA backend (driver, NVRTC, kernel cache, pinned
# uploads, SSB Q1.1 / select / hash probes against CPU results, concurrent cuckoo inserts, the
# prefix sum of tile counts, read bandwidth, no leaked allocation), on a GPU machine such as the one the development
# machines lend.
# That machine has no Java, Maven or network, so the work is split in two:
#
#   here:             scripts/gpu-smoke.sh prepare
#       builds target/tessera.jar, copies it (our own classes only; GpuSmokeCheck needs java.base
#       and nothing else) to .device/app/, and builds .device/jre.tar.xz with make-jre (or, where
#       make-jre cannot run, as in a git worktree, with jlink directly, java.base only).
#
#   on the GPU:       the device tool's run with carry [".device"] (tracked files travel anyway)
#                     and the command
#       bash scripts/gpu-smoke.sh run [--rows N]
#       which unpacks the JRE to /tmp, runs the check and writes the full log to $OUT/gpu-smoke.log.
#       The exit status is GpuSmokeCheck's: 0 when every check printed PASS.
#
# Only .device/ travels besides the tracked files (about 25 MB in all, under the 64 MiB limit).
# Record what it measured, with this command, in docs/PERFORMANCE.md.
set -euo pipefail
root=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)
cd "$root"
mode=${1:-prepare}
[[ $# -gt 0 ]] && shift

case $mode in
  prepare)
    source "$root/bin/find-jdk"
    tessera_find_jdk || exit 1
    export JAVA_HOME=$TESSERA_JAVA_HOME
    ./mvnw -q -B -DskipTests package
    mkdir -p .device/app
    cp target/tessera.jar .device/app/tessera.jar
    if [[ ! -f .device/jre.tar.xz ]]; then
      make_jre=${MAKE_JRE:-$root/../shared/device/make-jre}
      if ! { [[ -x $make_jre ]] && "$make_jre"; }; then
        echo "gpu-smoke: make-jre unavailable or failed here; building a java.base runtime with jlink" >&2
        work=$(mktemp -d)
        trap 'rm -rf "$work"' EXIT
        "$JAVA_HOME/bin/jlink" --add-modules java.base --compress=zip-9 --strip-debug --no-header-files \
          --no-man-pages --output "$work/jre"
        strip --strip-unneeded "$work"/jre/lib/server/libjvm.so "$work"/jre/lib/*.so 2>/dev/null || true
        tar -C "$work" -cJf .device/jre.tar.xz jre
      fi
    fi
    du -sh .device/app .device/jre.tar.xz
    echo "gpu-smoke: ready. On the GPU machine (device tool run, carry [\".device\"]):"
    echo "  bash scripts/gpu-smoke.sh run"
    ;;
  run)
    out=${OUT:-/tmp}
    jre_parent=${JRE_PARENT:-/tmp}
    if [[ ! -x $jre_parent/jre/bin/java ]]; then
      mkdir -p "$jre_parent"
      tar -xJf .device/jre.tar.xz -C "$jre_parent"
    fi
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv \
      > "$out/nvidia-smi.csv" 2>&1 || true
    set +e
    "$jre_parent/jre/bin/java" -Xmx24g --enable-native-access=ALL-UNNAMED \
      -Dtessera.cache.dir=/tmp/tessera-cache \
      -cp .device/app/tessera.jar io.tessera.backend.cuda.check.GpuSmokeCheck "$@" 2>&1 | tee "$out/gpu-smoke.log"
    rc=${PIPESTATUS[0]}
    set -e
    exit "$rc"
    ;;
  *)
    echo "usage: scripts/gpu-smoke.sh prepare | run [--rows N] [--cache DIR]" >&2
    exit 2
    ;;
esac
