#!/usr/bin/env bash
# Issue 15's evidence on the H100 machine, one part per device call:
#   check    the variants named in $VARIANTS ("filter/variant ..."): `filterlab
#            check` over the full matrix, then compute-sanitizer (memcheck,
#            racecheck, initcheck) over the sanitizer matrix -> check.txt
#   profile  Nsight Compute metrics of each target row's best handwritten and
#            best Halide CUDA kernel (one launch each on a random image, caches
#            flushed by ncu, clocks left alone) -> ncu/*.csv, ncu.txt
#   bench    every target row side by side (CUDA at 8192², median 5 and 7 at
#            4096², NL-means at 1024²; the CPU rows at 4096²), then the Python
#            peers in the same call -> runs/
#   scaling  the CPU rows' Halide variants at 1, 2, 4, 8 and 16 threads (where
#            a CPU row's time goes as cores are added) -> scaling/
# usage, from the repository root on that machine, after unpacking the bundle:
#   bash scripts/gpu_targets.sh OUT_DIR PART [ROWS_FILE]
# ROWS_FILE (default scripts/targets_rows.txt, which says its format) lists
# the rows; a variant this build does not have is left out, and said so.
set -uo pipefail
out=$1
part=$2
rows=${3:-scripts/targets_rows.txt}
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out"
known() {  # known FILTER VARIANT: this build has it (else a line on stderr)
    "$fl" list --json --filter "$1" | python3 -c '
import json, sys
sys.exit(all(v["variant"] != sys.argv[1] for v in json.load(sys.stdin)["variants"]))' "$2" && return 0
    echo "not in this build, left out: $1/$2" >&2
    return 1
}
keep() { tar -C "$out" -cf "$out/$1.tar" "$1"; }  # kept at every step: a call cut short keeps what it measured

random_pgm() {  # random_pgm SIZE FILE: a gray image of uniform noise
    python3 - "$1" "$2" <<'PY'
import sys, numpy as np
n = int(sys.argv[1])
img = np.random.default_rng(15).integers(0, 256, size=(n, n), dtype=np.uint8)
with open(sys.argv[2], "wb") as f:
    f.write(b"P5\n%d %d\n255\n" % (n, n)); f.write(img.tobytes())
PY
}

param_args() {  # "a=1,b=2" -> -p a=1 -p b=2
    [ "$1" = - ] && return
    local IFS=,
    for kv in $1; do printf -- '-p\n%s\n' "$kv"; done
}

case $part in
check)
    sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    for fv in ${VARIANTS:?}; do
        filter=${fv%%/*} variant=${fv#*/}
        echo "\$ filterlab check --filter $filter --variant $variant"
        timeout 150 "$fl" check --filter "$filter" --variant "$variant" 2>&1 | grep -v "cases done" | tail -n 12
        echo "rc=${PIPESTATUS[0]}"
        for tool in memcheck racecheck initcheck; do
            echo "\$ compute-sanitizer --tool $tool filterlab check --filter $filter --variant $variant --sanitizer-matrix"
            timeout 150 "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 10 \
                "$fl" check --filter "$filter" --variant "$variant" --sanitizer-matrix 2>&1 |
                grep -E "SUMMARY|passed|failed|Error|error" | grep -v "cases done" | tail -n 6
            echo "rc=${PIPESTATUS[0]}"
        done
    done >"$out/check.txt" 2>&1
    ;;
profile)
    metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__inst_issued.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,launch__registers_per_thread,launch__occupancy_limit_registers,sm__maximum_warps_per_active_cycle_pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
    mkdir -p "$out/ncu" "$out/images"
    ncu --version >"$out/ncu.txt" 2>&1
    grep -v "^#" "$rows" | while read -r filter size params _targets variants; do
        [ -z "$filter" ] && continue
        img="$out/images/noise$size.pgm"
        [ -f "$img" ] || random_pgm "$size" "$img"
        for v in $variants; do
            case $v in npp_* | py_* | cpu_* | opencv_* | omp_* | pthreads_*) continue ;; esac
            known "$filter" "$v" 2>>"$out/ncu.txt" || continue
            tag="${filter}_${params//[=,]/-}_${size}_$v"
            mapfile -t pa < <(param_args "$params")
            echo "\$ ncu --clock-control none --csv --metrics ... $fl run --filter $filter --variant $v ${pa[*]} -i noise$size.pgm" >>"$out/ncu.txt"
            timeout 120 ncu --clock-control none --csv --metrics "$metrics" \
                "$fl" run --filter "$filter" --variant "$v" "${pa[@]}" -i "$img" -o "$out/images/out.pgm" --quiet \
                >"$out/ncu/$tag.csv" 2>>"$out/ncu.txt"
            echo "rc=$?" >>"$out/ncu.txt"
        done
        rm -f "$out/images/out.pgm"
        keep ncu
    done
    rm -rf "$out/images"
    ;;
bench)
    mkdir -p "$out/runs"
    "$fl" info >"$out/info.txt" 2>&1
    nvidia-smi -q -d CLOCK >>"$out/info.txt" 2>&1
    grep -v "^#" "$rows" | while read -r filter size params _targets variants; do
        [ -z "$filter" ] && continue
        mapfile -t pa < <(param_args "$params")
        va=()
        for v in $variants; do known "$filter" "$v" && va+=(--variant "$v"); done
        echo "\$ filterlab bench --filter $filter --sizes $size ${pa[*]} ${va[*]}"
        "$fl" bench --filter "$filter" --sizes "$size" "${pa[@]}" "${va[@]}" --min-reps 20 --min-time 0.3 \
            --quiet --out "$out/runs"
        echo "rc=$?"
        keep runs
    done >"$out/bench.txt" 2>&1
    echo "\$ python3 scripts/peers_python.py --filterlab $fl --out $out/runs --sizes 4096,8192 --rows $rows" >>"$out/bench.txt"
    python3 scripts/peers_python.py --filterlab "$fl" --out "$out/runs" --sizes 4096,8192 --rows "$rows" >>"$out/bench.txt" 2>&1
    echo "rc=$?" >>"$out/bench.txt"
    keep runs
    ;;
scaling)
    mkdir -p "$out/scaling"
    grep -v "^#" "$rows" | while read -r filter size params targets variants; do
        case $targets in *peer\>=*) ;; *) continue ;; esac  # the CPU rows
        mapfile -t pa < <(param_args "$params")
        va=()
        for v in $variants; do case $v in cpu_*) known "$filter" "$v" && va+=(--variant "$v") ;; esac; done
        [ ${#va[@]} -eq 0 ] && continue
        echo "\$ filterlab bench --filter $filter --sizes $size ${pa[*]} ${va[*]} --threads 1,2,4,8,16"
        "$fl" bench --filter "$filter" --sizes "$size" "${pa[@]}" "${va[@]}" --threads 1,2,4,8,16 --min-reps 10 \
            --min-time 0.2 --quiet --out "$out/scaling"
        echo "rc=$?"
        keep scaling
    done >"$out/scaling.txt" 2>&1
    ;;
*)
    echo "usage: gpu_targets.sh OUT_DIR check|profile|bench|scaling [ROWS_FILE]" >&2
    exit 2
    ;;
esac
for d in ncu runs scaling; do [ -d "$out/$d" ] && rm -rf "${out:?}/$d"; done
exit 0
