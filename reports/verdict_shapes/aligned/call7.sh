# Device call 7 (nvidia-h200), from the repository root with .device-build carried
# (a build of FILTERLAB_SHAPES=1920x1080,aligned, `scripts/device_bundle.sh --cli`):
# every filter's quick check matrix (the aligned widths 64 and 192 and the build's
# shape on every DSL path) in parallel; the NL-means Anderson variant under memcheck
# until its first error; then the RGB verdict bench on every path.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c7
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv > $OUT/c7/gpu.txt
$fl list --json > $OUT/c7/list.json
start=$(date +%s)
for f in box median gaussian maxpool gaussian_maxpool nlmeans; do
    $fl check --filter $f --quick -q > $OUT/c7/check_$f.txt 2>&1 &
done
timeout 300 compute-sanitizer --tool memcheck --print-limit 8 $fl check --filter nlmeans \
    --variant cuda_auto_anderson2021 --quick -q > $OUT/c7/anderson_memcheck.txt 2>&1 &
wait
echo "checks: $(( $(date +%s) - start )) s" > $OUT/c7/times.txt
python3 scripts/device/run.py verdict_shapes $OUT/c7/v --only rgb > $OUT/c7/rgb_runner.txt 2>&1
echo "with rgb: $(( $(date +%s) - start )) s" >> $OUT/c7/times.txt
tar -czf $OUT/c7.tgz -C $OUT c7 && rm -rf $OUT/c7
