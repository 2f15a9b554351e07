# Device call 11 (nvidia-h200), sixth session, the bundle of call 10: the rows of the median, the
# max pool and Gaussian -> pool (their hand kernels' stores changed: store_strip, store_bytes) in one
# run of every class at every shape, gray; then every row of call 10 and this one at 4096x2304 RGB.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c11
start=$(date +%s)
timeout 380 python3 scripts/device/run.py verdict_shapes $OUT/c11/g --only gray \
    --set gray.filters="median maxpool gaussian_maxpool" > $OUT/c11/gray_runner.txt 2>&1
echo "gray: $(( $(date +%s) - start )) s" > $OUT/c11/times.txt
timeout $(( 580 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c11/c --only rgb \
    --set rgb.filters="box median gaussian maxpool gaussian_maxpool" > $OUT/c11/rgb_runner.txt 2>&1
echo "rgb: $(( $(date +%s) - start )) s" >> $OUT/c11/times.txt
tar -czf $OUT/c11.tgz -C $OUT c11 && rm -rf $OUT/c11
