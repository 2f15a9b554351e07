# Device call 1 (nvidia-h200), from the repository root with .device-build carried: the
# frontier configured with FILTERLAB_SHAPES=1920x1080,3840x2160,6000x4000,4096x2304,1001x997,
# 1024x1024,4096x4096,8192x8192,aligned (`scripts/device_bundle.sh --cli`). Every filter's quick
# check matrix (every build shape on each DSL variant's exact, aligned and generic paths), an
# NL-means CUDA variant a process (one that loses the GPU cannot take the others with it); then
# the RGB verdict bench (seed 004's 4096x2304) on every path.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv > $OUT/c1/gpu.txt
$fl list --json > $OUT/c1/list.json
start=$(date +%s)
for f in box median gaussian maxpool gaussian_maxpool; do
    timeout 400 $fl check --filter $f --quick -q > $OUT/c1/check_$f.txt 2>&1 &
done
for v in $($fl list --filter nlmeans | awk '$3 == "cuda" && $4 != "peer" {print $2}'); do
    timeout 400 $fl check --filter nlmeans --variant $v --quick -q > $OUT/c1/check_nlmeans_$v.txt 2>&1 &
done
wait
echo "checks: $(( $(date +%s) - start )) s" > $OUT/c1/times.txt
python3 scripts/device/run.py verdict_shapes $OUT/c1/v --only rgb > $OUT/c1/rgb_runner.txt 2>&1
echo "with rgb: $(( $(date +%s) - start )) s" >> $OUT/c1/times.txt
tar -czf $OUT/c1.tgz -C $OUT c1 && rm -rf $OUT/c1
