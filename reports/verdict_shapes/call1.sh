# Device call 1 (nvidia-h200), from the repository root with .device-build carried:
# every filter's quick check matrix (with the build's shapes: each CUDA DSL
# variant's exact and generic paths) in parallel, then the gray verdict bench.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build  # as the runner does (its marker: size and time)
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,memory.total --format=csv | tee $OUT/gpu.txt
$fl list --json > $OUT/list.json
for f in box median gaussian maxpool gaussian_maxpool nlmeans; do
    $fl check --filter $f --quick -q > $OUT/check_$f.txt 2>&1 &
done
wait
tail -n 4 $OUT/check_*.txt
python3 scripts/device/run.py verdict_shapes $OUT/v --only gray
