#!/usr/bin/env bash
# MPI across GPUs (issue 17), in one device call on a machine with two GPUs:
# tests/test_mpi.sh with CUDA variants (each rank its own GPU), then 1 rank
# against 2 on the batch of 20 RGB 4096x2304 images (bench --batch) and on one
# 32768x32768 gray image (filterlab run, outputs compared byte for byte).
# usage, from the repository root on that machine, after unpacking the bundle:
#   bash scripts/gpu_mpi_scaling.sh OUT_DIR
set -uo pipefail
out=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out/runs"
flags=()
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
{
    nvidia-smi --query-gpu=index,name,clocks.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current --format=csv
    nvidia-smi topo -m
    mpirun --version | head -1
    nproc
} >"$out/machine.txt" 2>&1
bash tests/test_mpi.sh "$fl" cuda >"$out/mpi_test.txt" 2>&1
echo "rc=$?" >>"$out/mpi_test.txt"

batch=(bench --batch 20 --batch-size 4096x2304 --channels 3 --filter gaussian --filter median --filter box
       --variant hw_separable --variant hw_packed --variant hw_wide_rows --variant cuda_tile)
"$fl" "${batch[@]}" --out "$out/runs/batch-1rank" >"$out/batch_1rank.txt" 2>&1
mpirun "${flags[@]}" -n 2 "$fl" "${batch[@]}" --out "$out/runs/batch-2ranks" >"$out/batch_2ranks.txt" 2>&1

# One 32768^2 gray image (1 GiB), on local disk.
TIMEFORMAT="wall %R s (reading and writing the file included)"
big=/tmp/filterlab_big
mkdir -p $big
python3 -c "
import numpy as np
rng = np.random.default_rng(32768)
img = rng.integers(0, 256, size=(32768, 32768), dtype=np.uint8)
with open('$big/in.pgm', 'wb') as f:
    f.write(b'P5 32768 32768 255\n'); f.write(img.tobytes())
"
for c in "gaussian hw_separable" "median hw_packed -p size=5" "box hw_wide_rows -p radius=15"; do
    read -r filter variant extra <<<"$c"
    args=(run --filter "$filter" --variant "$variant" -i $big/in.pgm)
    # shellcheck disable=SC2206
    [ -z "$extra" ] || args+=($extra)
    {
        echo "\$ filterlab ${args[*]} -o one.pgm"
        time "$fl" "${args[@]}" -o $big/one.pgm
        echo "\$ mpirun -n 2 filterlab ${args[*]} -o two.pgm"
        time mpirun "${flags[@]}" -n 2 "$fl" "${args[@]}" -o $big/two.pgm
        cmp $big/one.pgm $big/two.pgm && echo "bytes identical: 1 rank and 2 ranks"
    } >>"$out/big_image.txt" 2>&1
    rm -f $big/one.pgm $big/two.pgm
done
rm -rf $big
tar -C "$out" -cf "$out/runs.tar" runs && rm -rf "$out/runs"
