#!/usr/bin/env bash
# Builds the GPU check-and-time binary of the NL-means scatter probe: compiles
# its CUDA variants (nlmeans_scatter.py DIR) and links them, statically with
# the CUDA runtime, with nlmeans_time.cpp (as build_probe.sh does for
# probe_time.cpp).
# usage: bash scripts/probes/build_nlmeans.sh OUT_DIR
#        then on the GPU machine: OUT_DIR/nlmeans_time [NAME]
set -euo pipefail
cd "$(dirname "$0")"
out=$1
mkdir -p "$out"
../../.venv/bin/python nlmeans_scatter.py "$out"
halide=$(../../.venv/bin/python -c "import halide; print(halide.install_dir())")
names=$(cd "$out" && ls scatter_*.h | sed 's/\.h$//')
{
    for n in $names; do echo "#include \"$n.h\""; done
    printf '#define PROBES'
    for n in $names; do printf ' {"%s", %s},' "$n" "$n"; done
    echo
} >"$out/probe_list.h"
objects=$(for n in $names; do echo "$out/$n.o"; done)
g++ -O2 -std=c++17 -I"$out" -I"$halide/include" -I/usr/local/cuda/include nlmeans_time.cpp $objects \
    "$out/halide_runtime.o" -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcudart_static -lcuda \
    -ldl -lpthread -lrt -o "$out/nlmeans_time"
echo "built $out/nlmeans_time: $names"
