# Device call 6 (nvidia-h200), fifth session: the frontier of af48f33 built with
# FILTERLAB_SHAPES=1920x1080,3840x2160,6000x4000,4096x2304,1001x997,8192x8192,aligned and carried as
# `scripts/device_bundle.sh --cli`. The two TVM interiors without clamps, tvm_rows8_interior
# (Gaussian) and tvm_fused_interior (Gaussian -> pool): each over the full check matrix (every
# path of every build shape) and under compute-sanitizer on the sanitizer matrix (memcheck with the
# leak check, racecheck and initcheck; its matrix holds the build's shapes), side by side. Then the
# Gaussian's and Gaussian -> pool's rows in one run of every class at every shape (their candidates
# in scripts/verdict_rows.txt, gray and 4096x2304 RGB), and Nsight Compute on each row's TVM
# kernels at 8192² and 1920x1080.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c6/san
start=$(date +%s)
for fv in gaussian:tvm_rows8_interior gaussian_maxpool:tvm_fused_interior; do
    f=${fv%%:*}; v=${fv#*:}
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f --variant $v \
            --sanitizer-matrix > $OUT/c6/san/$v.$t.log 2>&1 &
    done
    timeout 300 $fl check --filter $f --variant $v -q > $OUT/c6/check_$v.txt 2>&1 &
done
wait
echo "checks: $(( $(date +%s) - start )) s" > $OUT/c6/times.txt
timeout 300 python3 scripts/device/run.py verdict_shapes $OUT/c6/g --only gray,rgb --set gray.filters="gaussian gaussian_maxpool" \
    --set rgb.filters="gaussian gaussian_maxpool" > $OUT/c6/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
timeout $(( 570 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c6/ncu --only ncu \
    --set ncu.cases="gaussian 8192 sigma=1 tvm_rows8_r128 tvm_rows8_interior
gaussian 1920x1080 sigma=1 tvm_rows8_r128 tvm_rows8_interior
gaussian_maxpool 8192 sigma=1 tvm_fused tvm_fused_interior
gaussian_maxpool 1920x1080 sigma=1 tvm_fused tvm_fused_interior" > $OUT/c6/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c6/times.txt
tar -czf $OUT/c6.tgz -C $OUT c6 && rm -rf $OUT/c6
