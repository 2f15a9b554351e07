#!/usr/bin/env bash
# Builds the GPU check-and-time binary of a Halide probe: compiles the probe's
# schedules for CUDA (PROBE.py DIR) and links them, statically with the CUDA
# runtime, with its harness (probe_time.cpp for the box probes' calling
# convention, nlmeans_time.cpp for the NL-means scatter probe's).
# usage: bash reports/halide/probes/build_probe.sh box_words_io OUT_DIR
#        bash reports/halide/probes/build_probe.sh nlmeans_scatter OUT_DIR nlmeans_time
#        then on the GPU machine: OUT_DIR/probe_time (OUT_DIR/nlmeans_time)
set -euo pipefail
probe=$1 out=$2 harness=${3:-probe_time}
mkdir -p "$out"
out=$(cd "$out" && pwd)  # OUT_DIR as given, relative to where this was called from
cd "$(dirname "$0")"
python=../../../.venv/bin/python  # the repository's venv (scripts/setup.sh), with Halide
"$python" "$probe.py" "$out"
halide=$("$python" -c "import halide; print(halide.install_dir())")
names=$(cd "$out" && ls *.h | grep -v probe_list | sed 's/\.h$//')
{
    for n in $names; do echo "#include \"$n.h\""; done
    printf '#define PROBES'
    for n in $names; do printf ' {"%s", %s},' "$n" "$n"; done
    echo
} >"$out/probe_list.h"
objects=$(for n in $names; do echo "$out/$n.o"; done)
g++ -O2 -std=c++17 -I"$out" -I"$halide/include" -I/usr/local/cuda/include "$harness.cpp" $objects \
    "$out/halide_runtime.o" -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcudart_static -lcuda \
    -ldl -lpthread -lrt -o "$out/$harness"
echo "built $out/$harness: $names"
