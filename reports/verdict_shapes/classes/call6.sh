# Device call 6 (nvidia-h200), fifth session: the frontier of the commit after call 5's, built
# with FILTERLAB_SHAPES=1920x1080,3840x2160,6000x4000,4096x2304,1001x997,8192x8192,aligned and
# carried as `scripts/device_bundle.sh --cli`: the Gaussian's row in one run of every class at
# every shape (its candidates in scripts/verdict_rows.txt, tvm_rows8_interior among them, and the
# peer), gray and 4096x2304 RGB; tvm_rows8_interior checked on every path of every build shape
# (full matrix) and under initcheck (the sanitizer matrix); then Nsight Compute on the
# Gaussian's TVM kernels at 8192² and 1920x1080.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c6
start=$(date +%s)
timeout 200 $fl check --filter gaussian --variant tvm_rows8_interior -q > $OUT/c6/check.txt 2>&1; echo "rc=$?" >> $OUT/c6/check.txt
timeout 200 $san --tool initcheck --error-exitcode 99 --print-limit 20 $fl check --filter gaussian \
    --variant tvm_rows8_interior --sanitizer-matrix > $OUT/c6/initcheck.txt 2>&1; echo "rc=$?" >> $OUT/c6/initcheck.txt
echo "checks: $(( $(date +%s) - start )) s" > $OUT/c6/times.txt
timeout 240 python3 scripts/device/run.py verdict_shapes $OUT/c6/g --only gray,rgb --set gray.filters=gaussian \
    --set rgb.filters=gaussian > $OUT/c6/gaussian_runner.txt 2>&1
echo "gaussian: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
timeout $(( 560 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c6/ncu --only ncu \
    --set ncu.cases="gaussian 8192 sigma=1 tvm_rows8_r128 tvm_rows8_interior
gaussian 1920x1080 sigma=1 tvm_rows8_r128 tvm_rows8_interior" > $OUT/c6/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
tar -czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
