# Device call 12 (nvidia-h200), sixth session, the bundle of call 10: every variant of the Gaussian
# and of Gaussian -> pool (CUDA, OpenCL, CPU) over the full check matrix, which now holds sigma 0.2
# (the weights [0, 0, 256, 0, 0]) and the build's six shapes (every exact path), side by side.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c12
start=$(date +%s)
for f in gaussian gaussian_maxpool; do
    timeout 500 $fl check --filter $f -q > $OUT/c12/check_$f.txt 2>&1 &
done
wait
echo "checks: $(( $(date +%s) - start )) s" > $OUT/c12/times.txt
tar -czf $OUT/c12.tgz -C $OUT c12 && rm -rf $OUT/c12
