#!/usr/bin/env bash
# Issue 31 where only one GPU is lent: one 32768x32768 gray PGM (1 GiB, local
# disk) through `filterlab run` on 1 rank and on 2 and 4 ranks sharing the one
# GPU, each rank reading and writing its own band (MPI-IO); outputs compared
# byte for byte with 1 rank's. Ranks sharing a GPU prove the bytes and show
# the read and write phases per rank, not the speed of N GPUs.
# usage, from the repository root on the GPU machine after unpacking the bundle:
#   bash scripts/gpu_mpi_io.sh OUT_DIR
set -uo pipefail
out=$1
fl=${FILTERLAB_EXE:-.device-build/filterlab}
mkdir -p "$out"
flags=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
big=/tmp/filterlab_big
mkdir -p $big
{
    nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv
    mpirun --version | head -1
    nproc
    df -h /tmp | tail -1
} >"$out/machine.txt" 2>&1
python3 -c "
import numpy as np
img = np.random.default_rng(32768).integers(0, 256, size=(32768, 32768), dtype=np.uint8)
with open('$big/in.pgm', 'wb') as f:
    f.write(b'P5 32768 32768 255\n'); f.write(img.tobytes())
"
TIMEFORMAT="wall %R s"
for c in "box hw_wide_rows -p radius=1" "gaussian hw_columns_first -p sigma=1"; do
    read -r filter variant extra <<<"$c"
    # shellcheck disable=SC2206
    args=(run --filter "$filter" --variant "$variant" -i $big/in.pgm $extra)
    {
        echo "\$ filterlab ${args[*]} -o one.pgm"
        time "$fl" "${args[@]}" -o $big/one.pgm
        for n in 2 4; do
            echo "\$ mpirun -n $n filterlab ${args[*]} -o many.pgm"
            time mpirun "${flags[@]}" -n $n "$fl" "${args[@]}" -o $big/many.pgm
            cmp $big/one.pgm $big/many.pgm && echo "bytes identical: 1 rank and $n ranks"
        done
    } >>"$out/big_image.txt" 2>&1
    rm -f $big/one.pgm $big/many.pgm
done
rm -rf $big
