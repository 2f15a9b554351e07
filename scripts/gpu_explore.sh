#!/usr/bin/env bash
# Exploring the schedule space on the H100 machine (issue 14), one part per
# device call (each stays within its 10-minute limit):
#   check   every autoscheduled CUDA variant over the full check matrix, then
#           the sweeps
#   sweeps  `filterlab sweep` of each declared CUDA space at the bench's size
#           (NL-means 1024²)
#   cpu_sweep  the CPU one (box/cpu_sliding) at 4096²
#   bench   every CUDA variant but the sweep points, side by side in one run
#           at 8192² (NL-means 1024²; the report's verdict compares them)
#   bench_cpu  the same for the CPU variants at 4096² (NL-means 1024²)
# usage, from the repository root on that machine, after unpacking the bundle:
#   bash scripts/gpu_explore.sh OUT_DIR PART
set -uo pipefail
out=$1
part=$2
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out/runs"
case $part in
check)
    # The CUDA ones (CI checks the CPU ones: the CTest variants_cpu), each
    # within 2 minutes; then the sweeps of part `sweeps`.
    "$fl" info >"$out/info.txt" 2>&1
    "$fl" list | awk '$2 ~ /_auto_/ && $3 == "cuda" {print $1, $2}' >"$out/auto_variants.txt"
    while read -r filter variant; do
        echo "\$ filterlab check --filter $filter --variant $variant"
        timeout 120 "$fl" check --filter "$filter" --variant "$variant" 2>&1 | grep -v "cases done" | tail -n 8
        echo "rc=${PIPESTATUS[0]}"
    done <"$out/auto_variants.txt" >"$out/check_auto.txt" 2>&1
    ;;&
check | sweeps)
    sweep() {
        echo "\$ filterlab sweep $*"
        "$fl" sweep "$@" --min-reps 10 --min-time 0.2 --quiet --out "$out/runs"
        echo "rc=$?"
        tar -C "$out" -cf "$out/runs.tar" runs  # kept at every step: a call cut short keeps what it measured
    }
    {
        sweep --filter box --schedule cuda_tile --sizes 8192
        sweep --filter median --schedule cuda_register_block --param size=3 --sizes 8192
        sweep --filter gaussian --schedule cuda_rows8 --sizes 8192
        sweep --filter maxpool --schedule cuda_vectorized --sizes 8192
        sweep --filter gaussian_maxpool --schedule cuda_fused --sizes 8192
        sweep --filter nlmeans --schedule cuda_fused --sizes 1024 --quick  # its full matrix takes minutes per point
    } >"$out/sweeps.txt" 2>&1
    ;;
cpu_sweep)
    echo "\$ filterlab sweep --filter box --schedule cpu_sliding --sizes 4096" >"$out/cpu_sweep.txt"
    "$fl" sweep --filter box --schedule cpu_sliding --sizes 4096 --min-reps 10 --min-time 0.2 --quiet \
        --out "$out/runs" >>"$out/cpu_sweep.txt" 2>&1
    echo "rc=$?" >>"$out/cpu_sweep.txt"
    ;;
bench | bench_cpu)
    # One run per filter, every variant of the backend but the sweep points
    # and those named in $SKIP ("filter/variant,..."), side by side.
    if [ "$part" = bench ]; then backend=cuda big=8192; else backend=cpu big=4096; fi
    # Every filter of the contract, in its order (filterlab list: <filter> <variant> ...).
    for filter in $("$fl" list | awk '!seen[$1]++ {print $1}'); do
        size=$big reps=10
        [ "$filter" = nlmeans ] && size=1024 reps=5
        variants=()
        while read -r name; do
            case ",${SKIP:-}," in *",$filter/$name,"*) continue ;; esac
            variants+=(--variant "$name")
        done < <("$fl" list --filter "$filter" | awk -v b="$backend" '$3 == b && $2 !~ /\[/ {print $2}')
        echo "\$ filterlab bench --backend $backend --filter $filter --sizes $size ${variants[*]}"
        "$fl" bench --backend "$backend" --filter "$filter" --sizes "$size" --min-reps "$reps" --min-time 0.2 \
            --quiet --out "$out/runs" "${variants[@]}"
        echo "rc=$?"
        tar -C "$out" -cf "$out/runs.tar" runs  # kept at every step: a call cut short keeps what it measured
    done >"$out/$part.txt" 2>&1
    ;;
*)
    echo "usage: gpu_explore.sh OUT_DIR check|sweeps|cpu_sweep|bench|bench_cpu" >&2
    exit 2
    ;;
esac
tar -C "$out" -cf "$out/runs.tar" runs && rm -rf "$out/runs"
