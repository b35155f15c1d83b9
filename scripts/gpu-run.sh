#!/usr/bin/env bash
# Runs the tessera command line on a GPU machine that has no Java, Maven or network, to which at most 64 MiB of
# files travel with each command (the GPU machine the development machines lend is such a one):
#
#   here:         scripts/gpu-run.sh prepare
#       builds target/tessera.jar and copies it with its dependencies (all but DuckDB's JDBC driver,
#       which only the CPU benchmark's peer needs) to .device/app/, and builds .device/jre.tar.xz
#       with $MAKE_JRE (a script that writes a JRE for that machine there; by default the development
#       machines' make-jre). .device/app and .device/jre.tar.xz stay under 64 MiB.
#       scripts/gpu-run.sh prepare-peer
#       writes .device/duck/: DuckDB's JDBC driver (the version in pom.xml) with only its Linux x86-64 library,
#       stripped of its symbol table, in a jar of stored entries, xz-compressed (about 14 MB against 80 MB), for
#       the JVM backend's benchmark against DuckDB on the GPU machine's cores (bench ssb --device cpu).
#       run unpacks it to /tmp/tessera-duck before it starts. With the app and the JRE it passes 64 MiB: carry it
#       in a call of its own (carry [".device/duck"]) once an earlier call on the same machine unpacked the app to
#       /tmp/tessera-app.
#
#   on the GPU:   the device tool's run with carry [".device"] and a command such as
#       bash scripts/gpu-run.sh run selftest --device gpu --sf 1
#       bash scripts/gpu-run.sh run bench ssb --db /tmp/ssb20 --sf 20 --device gpu
#       bash scripts/gpu-run.sh run bench gpu-sort --rows 100000000   (CUB's sort beside it: .device/cub_sort_ref,
#                                                                       written here by bench/cuda/build-cub-ref.sh)
#       which unpacks the JRE to /tmp (once per machine) and runs tessera with the arguments given;
#       TESSERA_JAVA_OPTS adds JVM options (-Dtessera.gpu.compactAbove=0: every GPU group table is
#       compacted on the device before it is read back, small ones too); TESSERA_AOT=on trains the startup cache
#       on the machine once (about a minute) and runs with it, as ./tessera does.
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
    rm -rf .device/app
    mkdir -p .device/app/lib
    cp target/tessera.jar .device/app/tessera.jar
    for j in target/lib/*.jar; do
      # DuckDB (the peer, carried apart), the Parquet reader (import only) and Avatica's remote protocol (HTTP
      # client, protobuf: Calcite's JDBC server, which Tessera does not use) stay here: the app, the JRE and the
      # tracked tree must fit the device tool's 64 MiB
      case $(basename "$j") in
        duckdb_jdbc-*|parquet-*|aircompressor-*|httpclient5-*|httpcore5-*|protobuf-java-*) ;;
        *) cp "$j" .device/app/lib/ ;;
      esac
    done
    if [[ ! -f .device/jre.tar.xz || ! -f .device/jre.modules ]]; then
      "${MAKE_JRE:-$root/../shared/device/make-jre}"
      echo "make-jre" > .device/jre.modules
    fi
    du -sh .device/app .device/jre.tar.xz
    ;;
  prepare-peer)
    version=$(sed -n 's:.*<duckdb.version>\(.*\)</duckdb.version>.*:\1:p' pom.xml)
    jar=~/.m2/repository/org/duckdb/duckdb_jdbc/$version/duckdb_jdbc-$version.jar
    [[ -f $jar ]] || { echo "gpu-run.sh: $jar is missing: build the project once (./mvnw -DskipTests package)" >&2; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    (cd "$work" && unzip -q "$jar" && rm -f libduckdb_java.so_linux_arm64 libduckdb_java.so_macos_* libduckdb_java.so_windows_*)
    [[ -f $work/libduckdb_java.so_linux_amd64 ]] || { echo "gpu-run.sh: no linux-amd64 library in $jar" >&2; exit 1; }
    # the symbol table is for debuggers: the JVM loads the library through its dynamic symbols, which stay
    if command -v strip > /dev/null; then strip --strip-unneeded "$work/libduckdb_java.so_linux_amd64"; fi
    rm -rf .device/duck && mkdir -p .device/duck
    # entries stored, not deflated, so that xz (with its x86 filter for the machine code) compresses the library itself
    (cd "$work" && zip -q -0 -r "$work/peer.jar" META-INF org libduckdb_java.so_linux_amd64)
    xz -T0 --x86 --lzma2=preset=9e -c "$work/peer.jar" > ".device/duck/duckdb_jdbc-$version-linux-amd64.jar.xz"
    du -sh .device/duck
    ;;
  run)
    jre_parent=${JRE_PARENT:-/tmp}
    # keep the app where a later call that carries only .device/duck finds it; copied again only when it changed,
    # with its files' times, which the startup cache below is checked against
    if [[ -f .device/app/tessera.jar ]] && ! diff -rq .device/app /tmp/tessera-app > /dev/null 2>&1; then
      rm -rf /tmp/tessera-app /tmp/tessera-aot && cp -a .device/app /tmp/tessera-app
    fi
    if [[ ! -x $jre_parent/jre/bin/java ]]; then
      mkdir -p "$jre_parent"
      tar -xJf .device/jre.tar.xz -C "$jre_parent"
    fi
    # DuckDB's driver, when carried (prepare-peer): unpacked once per machine and version
    for packed in .device/duck/*.jar.xz; do
      [[ -f $packed ]] || continue
      unpacked=/tmp/tessera-duck/$(basename "$packed" .xz)
      if [[ ! -f $unpacked ]]; then
        rm -rf /tmp/tessera-duck && mkdir -p /tmp/tessera-duck   # one driver on the class path, not two versions
        xz -dc "$packed" > "$unpacked.tmp" && mv "$unpacked.tmp" "$unpacked"
      fi
    done
    source "$root/bin/jvm-options"
    java=("$jre_parent/jre/bin/java" -Xmx${TESSERA_HEAP:-48g} "${TESSERA_JVM_FLAGS[@]}" --enable-native-access=ALL-UNNAMED
      --sun-misc-unsafe-memory-access=allow)
    cp="/tmp/tessera-app/tessera.jar:/tmp/tessera-app/lib/*:/tmp/tessera-duck/*:$root/.device/duck/*"
    # TESSERA_AOT=on: the startup cache ./tessera uses (bin/aot-cache), trained here once per app and machine (the
    # JVM accepts a cache only from the same runtime and jars), so that benchmarks measure what the launcher runs
    aot=()
    if [[ ${TESSERA_AOT:-off} == on ]]; then
      cache=/tmp/tessera-aot/tessera.aot
      if [[ ! -e $cache.tried ]]; then
        mkdir -p /tmp/tessera-aot && touch "$cache.tried"
        echo "gpu-run.sh: training the startup cache ..." >&2
        "${java[@]}" -XX:AOTCacheOutput="$cache.tmp" -cp "$cp" io.tessera.cli.StartupTraining \
          > /tmp/tessera-aot/training.log 2>&1 < /dev/null && [[ -s $cache.tmp ]] && mv -f "$cache.tmp" "$cache"
      fi
      [[ -s $cache ]] && aot=(-XX:AOTCache="$cache" '-Xlog:aot*=off' '-Xlog:cds*=off')
    fi
    exec "${java[@]}" ${aot[@]+"${aot[@]}"} ${TESSERA_JAVA_OPTS:-} -cp "$cp" io.tessera.cli.Main "$@"
    ;;
  *)
    echo "usage: scripts/gpu-run.sh prepare | prepare-peer | run ARGS..." >&2
    exit 2
    ;;
esac
