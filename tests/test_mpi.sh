#!/usr/bin/env bash
# `filterlab run` over MPI ranks against one rank, bytes compared: every
# filter, on real PNG images (through rank 0) and odd PGM/PPM (each rank
# streaming its own rows of the files, in bands of 3 rows on 3 ranks), against
# one rank reading the whole image; 2 and 3 ranks (uneven bands,
# halos from both neighbours), and 4 ranks on a 5x3 image (ranks left idle);
# a failing run ends with one error line and no output (a missing input, a
# truncated PGM, an output folder that does not exist); `bench
# --batch` over 2 ranks writes ranks.csv.
# usage: tests/test_mpi.sh FILTERLAB BACKEND   (BACKEND: cpu in CI, cuda on the GPUs)
set -euo pipefail
cd "$(dirname "$0")/.."
filterlab=$(realpath "$1")
backend=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun_flags=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || mpirun_flags+=(--allow-run-as-root)
export HL_NUM_THREADS=1 OMP_NUM_THREADS=1  # 3 ranks on 2 cores
# A rank waiting for a message yields its core (CTest runs other tests beside it).
export OMPI_MCA_mpi_yield_when_idle=1
ranks() { local n=$1; shift; mpirun "${mpirun_flags[@]}" -n "$n" "$filterlab" "$@"; }

# One case per filter of `filterlab list --json`, in its order: the variant
# and parameters chosen below where the build has it (a Halide variant on the
# CPU, the handwritten one with the widest reach on CUDA; halos wider than
# one row, in little time), else the backend's first Halide schedule at the
# contract's defaults; then the extra cases the build has.
if [ "$backend" = cpu ]; then
    chosen=("box cpu_sliding radius=7" "median cpu_sep_strips size=5" "gaussian cpu_tiled sigma=1.5"
            "maxpool cpu_vectorized" "gaussian_maxpool cpu_fused" "nlmeans cpu_tiled patch=2 search=4")
    extra=("median omp_bubble size=7")
else
    chosen=("box hw_wide_rows radius=15" "median hw_packed size=5" "gaussian hw_separable" "maxpool hw_vectorized"
            "gaussian_maxpool hw_fused" "nlmeans hw_fused")
    extra=("box cuda_tile radius=3")
fi
mapfile -t cases < <("$filterlab" list --json | python3 -c '
import json, sys
backend, given = sys.argv[1], sys.argv[2:]
chosen, extra = given[:given.index("--")], given[given.index("--") + 1:]
every = [v for v in json.load(sys.stdin)["variants"] if v["backend"] == backend]
have = lambda case: any([v["filter"], v["variant"]] == case.split()[:2] for v in every)
for filter in dict.fromkeys(v["filter"] for v in every):
    case = next((c for c in chosen if c.split()[0] == filter and have(c)), None)
    first = next((v for v in every if v["filter"] == filter and v["origin"] == "schedule"), None)
    if case or first:
        print(case or filter + " " + first["variant"])
for case in extra:
    if have(case):
        print(case)' "$backend" "${chosen[@]}" -- "${extra[@]}")
[ "${#cases[@]}" -gt 0 ] || { echo "no variant of backend $backend in this build"; exit 1; }
python3 - "$work" <<'PY'
import sys, random
random.seed(7)
for name, (w, h) in {"odd": (97, 61), "tall": (13, 101), "tiny": (5, 3)}.items():
    with open(f"{sys.argv[1]}/{name}.pgm", "wb") as f:
        f.write(f"P5 {w} {h} 255\n".encode() + bytes(random.randrange(256) for _ in range(w * h)))
with open(f"{sys.argv[1]}/odd.ppm", "wb") as f:  # RGB, a comment in the header
    f.write(b"P6\n# odd\n45 37\n255\n" + bytes(random.randrange(256) for _ in range(45 * 37 * 3)))
PY
compared=0
for c in "${cases[@]}"; do
    read -r filter variant params <<<"$c"
    args=(--filter "$filter" --variant "$variant")
    [ -z "$params" ] || for p in $params; do args+=(--param "$p"); done
    # PNG through rank 0; PGM and PPM streamed in bands by every rank.
    for image in tests/images/gray.png tests/images/rgb_small.png "$work/odd.pgm" "$work/tall.pgm" "$work/odd.ppm"; do
        ext=${image##*.}
        "$filterlab" run "${args[@]}" -i "$image" -o "$work/one.$ext" --quiet --whole-image
        for n in 2 3; do
            bands=(--pwrite)  # 2 ranks write with pwrite, 3 through mapped windows in bands of 3 rows
            [ "$n" = 2 ] || bands=(--band-rows 3)
            ranks "$n" run "${args[@]}" -i "$image" -o "$work/many.$ext" --quiet "${bands[@]}"
            cmp "$work/one.$ext" "$work/many.$ext" || { echo "$filter/$variant on $image: $n ranks differ from 1"; exit 1; }
            compared=$((compared + 1))
        done
    done
    # More ranks than rows: the extra ranks idle.
    "$filterlab" run "${args[@]}" -i "$work/tiny.pgm" -o "$work/one.pgm" --quiet --whole-image
    ranks 4 run "${args[@]}" -i "$work/tiny.pgm" -o "$work/many.pgm" --quiet
    cmp "$work/one.pgm" "$work/many.pgm" || { echo "$filter/$variant on 5x3: 4 ranks differ from 1"; exit 1; }
    compared=$((compared + 1))
done

# A failure: one error line from all ranks, a non-zero status, no output.
read -r filter variant _ <<<"${cases[0]}"
if ranks 2 run --filter "$filter" --variant "$variant" -i "$work/missing.png" -o "$work/never.png" \
    >"$work/out" 2>"$work/err"; then
    echo "a missing input succeeded over 2 ranks"; exit 1
fi
errors=$(grep -c "^filterlab: error:" "$work/err" || true)
[ "$errors" -eq 1 ] || { echo "expected one error line, got $errors:"; cat "$work/err"; exit 1; }
[ ! -e "$work/never.png" ] || { echo "a failed run left its output"; exit 1; }
# The same streamed in bands: a truncated PGM, an output folder that does not
# exist; one line, no output, no temporary left beside it.
head -c 3000 "$work/odd.pgm" >"$work/truncated.pgm"
for io in "$work/truncated.pgm $work/never.pgm truncated" "$work/odd.pgm $work/no/such/never.pgm folder"; do
    read -r input output why <<<"$io"
    if ranks 3 run --filter "$filter" --variant "$variant" -i "$input" -o "$output" >"$work/out" 2>"$work/err"; then
        echo "bands: a run that must fail ($why) succeeded"; exit 1
    fi
    errors=$(grep -c "^filterlab: error:" "$work/err" || true)
    [ "$errors" -eq 1 ] || { echo "bands ($why): expected one error line, got $errors:"; cat "$work/err"; exit 1; }
    grep -q "$why" "$work/err" || { echo "bands ($why): not said:"; cat "$work/err"; exit 1; }
    listing=$(ls -A "$work")  # hidden temporaries too; read whole, not piped into grep -q (issue 56)
    if grep -q "never" <<<"$listing"; then echo "bands ($why): a failed run left a file"; exit 1; fi
done
# A PGM over 2 ranks says each rank streamed its own rows, with each rank's phases.
ranks 2 run --filter "$filter" --variant "$variant" -i "$work/odd.pgm" -o "$work/banded.pgm" >"$work/out"
grep -q "each streaming its own rows of the files" "$work/out" || { cat "$work/out"; exit 1; }
grep -q "^rank 1: read" "$work/out" || { cat "$work/out"; exit 1; }

# The batch over 2 ranks (the first case's variant): each rank's row in
# ranks.csv, the total in the summary.
ranks 2 bench --batch 4 --batch-size 64x48 --filter "$filter" --variant "$variant" --channels 1 --min-reps 3 \
    --min-time 0 --out "$work/bench" --quiet >"$work/batch_out"
csv=$(ls "$work"/bench/*/ranks.csv)
[ "$(grep -c "^$filter,$variant," "$csv")" -eq 2 ] || { echo "ranks.csv lacks a rank:"; cat "$csv"; exit 1; }
grep -q "images/s in total" "$work/batch_out" || { echo "no total throughput:"; cat "$work/batch_out"; exit 1; }
echo "mpi: $compared runs over 2, 3 and 4 ranks byte-identical to 1 rank; one error line on failure; batch over 2 ranks"
