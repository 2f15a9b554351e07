#!/usr/bin/env bash
# Exploring the schedule space on the H100 machine (issue 14), one part per
# device call (each stays within its 10-minute limit):
#   check   every autoscheduled CUDA variant over the full check matrix, then
#           the sweeps
#   sweeps  `filterlab sweep` of each CUDA schedule whose points the build has
#           (-DFILTERLAB_SWEEPS; `list --json`'s sweep_point variants) at the
#           bench's size (NL-means 1024²)
#   cpu_sweep  the same for the CPU ones (box/cpu_sliding) at 4096²
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
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
"$fl" list --json >"$listing"
# listed QUERY [BACKEND [FILTER]]: what this build has, from `filterlab list
# --json` (a variant's origin, backend and source are data; no name is parsed):
#   filters          every filter, in the contract's order
#   auto B           "<filter> <variant>" of each autoscheduled variant of backend B
#   sweeps B         "<filter> <schedule> [--param NAME=DEFAULT...]" of each schedule whose
#                    points are built for B (its discrete parameters at their defaults)
#   bench B F        every variant of F on B but the sweep points
listed() {
    python3 - "$listing" "$@" <<'PY'
import json, sys
listing, query, args = sys.argv[1], sys.argv[2], sys.argv[3:]
every = json.load(open(listing))["variants"]
if query == "filters":
    print("\n".join(dict.fromkeys(v["filter"] for v in every)))
elif query == "auto":
    for v in every:
        if v["origin"] == "autoscheduler" and v["backend"] == args[0]:
            print(v["filter"], v["variant"])
elif query == "sweeps":
    points = [v for v in every if v["origin"] == "sweep_point" and v["backend"] == args[0]]
    for s in every:
        if s["origin"] == "schedule" and any((p["filter"], p["backend"], p["source"]) ==
                                             (s["filter"], s["backend"], s["source"]) for p in points):
            fixed = [f"--param {n}={d['default']}" for n, d in s["params"].items() if "values" in d]
            print(s["filter"], s["variant"], *fixed)
elif query == "bench":
    for v in every:
        if v["filter"] == args[1] and v["backend"] == args[0] and v["origin"] != "sweep_point":
            print(v["variant"])
PY
}
sweep() {
    echo "\$ filterlab sweep $*"
    "$fl" sweep "$@" --min-reps 10 --min-time 0.2 --quiet --out "$out/runs" </dev/null
    echo "rc=$?"
    tar -C "$out" -cf "$out/runs.tar" runs  # kept at every step: a call cut short keeps what it measured
}
case $part in
check)
    # The CUDA ones (CI checks the CPU ones: the CTest variants_cpu), each
    # within 2 minutes; then the sweeps of part `sweeps`.
    "$fl" info >"$out/info.txt" 2>&1
    listed auto cuda >"$out/auto_variants.txt"
    while read -r filter variant; do
        echo "\$ filterlab check --filter $filter --variant $variant"
        timeout 120 "$fl" check --filter "$filter" --variant "$variant" 2>&1 | grep -v "cases done" | tail -n 8
        echo "rc=${PIPESTATUS[0]}"
    done <"$out/auto_variants.txt" >"$out/check_auto.txt" 2>&1
    ;;&
check | sweeps)
    # Every CUDA schedule whose points this build has (-DFILTERLAB_SWEEPS).
    while read -r filter schedule rest; do
        read -ra fixed <<<"$rest"
        if [ "$filter" = nlmeans ]; then  # its full matrix takes minutes per point
            sweep --filter "$filter" --schedule "$schedule" "${fixed[@]}" --sizes 1024 --quick
        else
            sweep --filter "$filter" --schedule "$schedule" "${fixed[@]}" --sizes 8192
        fi
    done < <(listed sweeps cuda) >"$out/sweeps.txt" 2>&1
    ;;
cpu_sweep)
    # Every CPU schedule whose points this build has (scripts/setup.sh: box/cpu_sliding).
    while read -r filter schedule rest; do
        read -ra fixed <<<"$rest"
        sweep --filter "$filter" --schedule "$schedule" "${fixed[@]}" --sizes 4096
    done < <(listed sweeps cpu) >"$out/cpu_sweep.txt" 2>&1
    ;;
bench | bench_cpu)
    # One run per filter, every variant of the backend but the sweep points
    # and those named in $SKIP ("filter/variant,..."), side by side.
    if [ "$part" = bench ]; then backend=cuda big=8192; else backend=cpu big=4096; fi
    # Every filter of the contract, in its order.
    for filter in $(listed filters); do
        size=$big reps=10
        [ "$filter" = nlmeans ] && size=1024 reps=5
        variants=()
        while read -r name; do
            case ",${SKIP:-}," in *",$filter/$name,"*) continue ;; esac
            variants+=(--variant "$name")
        done < <(listed bench "$backend" "$filter")
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
