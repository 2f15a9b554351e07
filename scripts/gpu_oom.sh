#!/usr/bin/env bash
# Out of GPU memory, as a user would meet it: a second process (CuPy) fills
# the GPU's memory, then `run`, `check`, `bench` and `bench --batch` on a CUDA
# variant must each end with one `filterlab: error:` line on stderr, exit
# status 1, and no output file, temporary or run directory. Two fillings: all
# of the memory (no CUDA context can be made) and all but FREE_MIB (default
# 400: the context is made, the large images do not fit; check, whose images
# are small, is run only under the first). Run on the GPU machine
# from the repository root, the bundle unpacked. Exit status 1 on any miss.
set -uo pipefail
fl=${FILTERLAB_EXE:-$PWD/.device-build/filterlab}
work=$(mktemp -d)
filler=
trap 'kill ${filler:-} 2>/dev/null; rm -rf "$work"' EXIT
python3 -c "
import numpy as np, sys
side = 16384
with open(sys.argv[1], 'wb') as f:
    f.write(b'P5\n%d %d\n255\n' % (side, side))
    np.random.default_rng(1).integers(0, 256, size=(side, side), dtype=np.uint8).tofile(f)
" "$work/big.pgm"

fill() {  # holds all GPU memory but $1 MiB until killed
    python3 -c "
import sys, time, cupy
rt = cupy.cuda.runtime
keep, held, chunk = int(sys.argv[1]) << 20, 0, 1 << 30
blocks = []
while chunk >= 1 << 20:
    free, total = rt.memGetInfo()
    if free < keep + chunk:
        chunk >>= 1
        continue
    try:
        blocks.append(rt.malloc(chunk)); held += chunk
    except Exception:
        chunk >>= 1
free, total = rt.memGetInfo()
print(f'filler: holds {held >> 20} MiB; {free >> 20} MiB of {total >> 20} MiB free', flush=True)
open(sys.argv[2], 'w').write('ready')
time.sleep(3600)
" "$1" "$work/ready" &
    filler=$!
    while ! [ -f "$work/ready" ]; do
        kill -0 "$filler" 2>/dev/null || { echo "gpu_oom: the CuPy filler failed" >&2; exit 1; }
        sleep 0.2
    done
    rm -f "$work/ready"
}

misses=0
expect_oom() {  # label, then the command's arguments; the output path to be absent is $work/out*
    local label=$1
    shift
    "$fl" "$@" >"$work/stdout" 2>"$work/stderr"
    local status=$? lines leftovers
    lines=$(wc -l <"$work/stderr")
    leftovers=$(cd "$work" && ls -A | grep -E '^(out|\.out|runs)' | tr '\n' ' ')
    local verdict=ok
    if [ "$status" -ne 1 ] || [ "$lines" -ne 1 ] || ! grep -q '^filterlab: error: ' "$work/stderr" || [ -n "$leftovers" ]; then
        verdict=MISS
        misses=$((misses + 1))
    fi
    echo "  $label: exit $status, $lines stderr line(s), left behind: [${leftovers}] -> $verdict"
    sed 's/^/    /' "$work/stderr" | head -5
    rm -rf "$work"/out* "$work"/.out* "$work"/runs
}

for keep in 0 "${FREE_MIB:-400}"; do
    echo "== GPU filled, ${keep} MiB left"
    fill "$keep"
    expect_oom "run" run --filter box --variant cuda_tile --input "$work/big.pgm" --output "$work/out.png"
    # check's images are small: they fit in what the second filling leaves.
    [ "$keep" = 0 ] && expect_oom "check" check --filter box --variant cuda_tile --quick
    expect_oom "bench" bench --filter box --variant cuda_tile --sizes 16384 --min-reps 3 --min-time 0 \
        --out "$work/runs"
    expect_oom "bench --batch" bench --batch 8 --batch-size 8192x8192 --filter box --variant cuda_tile \
        --min-reps 3 --min-time 0 --out "$work/runs"
    kill $filler
    wait $filler 2>/dev/null
done
echo "$misses miss(es)"
exit $((misses > 0))
