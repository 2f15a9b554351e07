#!/usr/bin/env bash
# Issues 28-30 on the H100, one device call: the last levers of the ledger.
# The median's strip schedule checked, under memcheck, swept at its three
# target rows and profiled (gpu_issue30.sh); the Gaussian's 16-bit CPU
# schedule swept on the Xeon and timed beside the other CPU schedules and
# the OpenCV peers; the box's gpu_lanes probe (scripts/probes/box_lanes.py,
# built by build_probe.sh into .device-build/probes/box_lanes) checked and
# timed at the Halide runtime's register cap and at 255, with the box rows'
# hand kernel and best Halide schedule timed in the same call.
# usage, from the repository root after unpacking the bundle:
#   bash scripts/gpu_last_levers.sh OUT_DIR
set -uo pipefail
o=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$o"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem --format=csv >"$o/gpu.txt"
lscpu | grep -E "Model name|^CPU\(s\)" >>"$o/gpu.txt"
VARIANTS="median/cuda_sep_strip" SWEEPS="median/cuda_sep_strip" \
    NCU="median/cuda_sep_strip median/cuda_sep_tile_4x4 median/hw_row_pairs" bash scripts/gpu_issue30.sh "$o"
{
    echo "\$ filterlab sweep --filter gaussian --schedule cpu_columns_u16 --sizes 4096 --quick"
    "$fl" sweep --filter gaussian --schedule cpu_columns_u16 --sizes 4096 --quick --min-reps 20 --min-time 0.3 \
        -q --out "$o/runs" 2>&1 | grep -E "^gaussian|passed|failed|error"
    echo "\$ filterlab bench --filter gaussian (CPU schedules and peers) --sizes 4096"
    "$fl" bench --filter gaussian --variant cpu_columns_u16 --variant cpu_columns_rows --variant cpu_tiled \
        --variant cpu_sliding --variant opencv_gaussian_blur --variant py_cv2_gaussian_blur --sizes 4096 \
        --min-reps 30 --min-time 0.5 -q --out "$o/runs" 2>&1 | grep -E "^gaussian|error"
} >"$o/cpu_gaussian.txt" 2>&1
probe=.device-build/probes/box_lanes/probe_time
{
    echo "\$ probe_time   (HL_CUDA_JIT_MAX_REGISTERS unset: 64)"
    timeout 150 "$probe"
    echo "\$ HL_CUDA_JIT_MAX_REGISTERS=255 probe_time"
    HL_CUDA_JIT_MAX_REGISTERS=255 timeout 150 "$probe"
    for r in 1 7 15; do
        "$fl" bench --filter box --variant hw_running_sums --variant cuda_words_strips --sizes 8192 -p radius=$r \
            --min-reps 20 --min-time 0.2 -q --out "$o/runs" | grep "^box"
    done
} >"$o/box_lanes.txt" 2>&1
