#!/usr/bin/env bash
# Exploring the schedule space on the H100 machine (issue 14), one part per
# device call (each stays within its 10-minute limit):
#   check   every autoscheduled variant, CPU and CUDA, over the full check matrix
#   sweeps  `filterlab sweep` of each declared CUDA space at the bench's size
#           (NL-means 1024²) and of the CPU one (box/cpu_sliding) at 4096²
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
    "$fl" info >"$out/info.txt" 2>&1
    "$fl" list | awk '$2 ~ /_auto_/ {print $1, $2, $3}' >"$out/auto_variants.txt"
    while read -r filter variant backend; do
        echo "\$ filterlab check --filter $filter --variant $variant"
        "$fl" check --filter "$filter" --variant "$variant" --quiet 2>&1 | tail -n 4
        echo "rc=${PIPESTATUS[0]}"
    done <"$out/auto_variants.txt" >"$out/check_auto.txt" 2>&1
    ;;
sweeps)
    sweep() {
        echo "\$ filterlab sweep $*"
        "$fl" sweep "$@" --min-reps 10 --min-time 0.2 --quiet --out "$out/runs"
        echo "rc=$?"
    }
    {
        sweep --filter box --schedule cuda_tile --sizes 8192
        sweep --filter median --schedule cuda_register_block --param size=3 --sizes 8192
        sweep --filter gaussian --schedule cuda_rows8 --sizes 8192
        sweep --filter maxpool --schedule cuda_vectorized --sizes 8192
        sweep --filter gaussian_maxpool --schedule cuda_fused --sizes 8192
        sweep --filter nlmeans --schedule cuda_fused --sizes 1024
        sweep --filter box --schedule cpu_sliding --sizes 4096
    } >"$out/sweeps.txt" 2>&1
    ;;
bench | bench_cpu)
    variants=()
    while read -r name; do variants+=(--variant "$name"); done < <("$fl" list | awk '$2 !~ /\[/ {print $2}' | sort -u)
    five=(--filter box --filter median --filter gaussian --filter maxpool --filter gaussian_maxpool)
    if [ "$part" = bench ]; then
        backend=cuda big=8192
    else
        backend=cpu big=4096
    fi
    {
        echo "\$ filterlab bench --backend $backend (every variant but sweep points) ${five[*]} --sizes $big"
        "$fl" bench --backend "$backend" "${five[@]}" --sizes "$big" --min-reps 10 --min-time 0.2 --quiet \
            --out "$out/runs" "${variants[@]}"
        echo "rc=$?"
        echo "\$ filterlab bench --backend $backend --filter nlmeans --sizes 1024"
        "$fl" bench --backend "$backend" --filter nlmeans --sizes 1024 --min-reps 5 --min-time 0.2 --quiet \
            --out "$out/runs" "${variants[@]}"
        echo "rc=$?"
    } >"$out/$part.txt" 2>&1
    ;;
*)
    echo "usage: gpu_explore.sh OUT_DIR check|sweeps|bench|bench_cpu" >&2
    exit 2
    ;;
esac
tar -C "$out" -cf "$out/runs.tar" runs && rm -rf "$out/runs"
