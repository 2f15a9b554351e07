#!/usr/bin/env bash
# The verdict for the GPU at hand, in a few minutes (scripts/main.sh runs it
# where there is an NVIDIA GPU): each row of scripts/verdict_rows.txt at two
# video frames, 1920x1080 (the default build's FILTERLAB_SHAPES: each DSL's
# exact and generic paths) and 3840x2160 (generic, unless the build names it),
# its hand kernels, Halide's and TVM's candidates side by side, a row's
# variant this build lacks left out. Summary: scripts/verdict_shapes.py OUT/*.
# usage: scripts/gpu_verdict.sh FILTERLAB OUT
set -euo pipefail
cd "$(dirname "$0")/.."
filterlab=$1
out=$2
built=$("$filterlab" list)  # "filter variant backend kind"
grep -v '^#' scripts/verdict_rows.txt | while read -r filter _sizes params _targets variants; do
    [ -n "$filter" ] || continue
    chosen=()
    for v in $variants; do
        grep -q "^$filter $v " <<<"$built" && chosen+=(--variant "$v")
    done
    # shellcheck disable=SC2046
    "$filterlab" bench --filter "$filter" --sizes 1920x1080,3840x2160 --paths all --min-reps 10 --min-time 0.1 \
        --quiet --out "$out" $([ "$params" = - ] || tr ',' '\n' <<<"$params" | sed 's/^/--param /') \
        "${chosen[@]}" >/dev/null
    echo "gpu_verdict: $filter $params: $((${#chosen[@]} / 2)) variants timed"
done
