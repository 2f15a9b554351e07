# Device call 5 (nvidia-h200), fifth session: the default build of the commit that merges the
# folded DeviceImage (issue 55), the Gaussian's tvm_rows8_interior (issue 54) and NL-means'
# final hw_symmetric (issue 57), carried as `scripts/device_bundle.sh --cli` plus
# .device-build/tests.tar.xz (test_variants, test_api and libfilterlab.so, stripped).
# Part 1, checks side by side: the device image's layout test on CUDA memory and test_api --cuda;
# test_variants --backend=opencl on NVIDIA's OpenCL (the opencl experiment's step); filterlab
# check of every box and max pool variant (quick matrix); the full matrix and compute-sanitizer
# (memcheck with the leak check, racecheck, initcheck) for hw_symmetric and tvm_rows8_interior.
# Part 2, timed one after another: the Gaussian row's candidates at the verdict's gray shapes and
# 4096x2304 RGB on every path, NL-means' row at its three shapes, then Nsight Compute on the
# Gaussian's two TVM kernels at 8192² and 1920x1080.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
tar -xJf .device-build/tests.tar.xz -C .device-build
mkdir -p $OUT/c5/san
start=$(date +%s)
timeout 120 .device-build/test_variants --backend=cuda --test-case="device image*" > $OUT/c5/layout_cuda.txt 2>&1; echo "rc=$?" >> $OUT/c5/layout_cuda.txt
timeout 120 .device-build/test_api --cuda > $OUT/c5/api_cuda.txt 2>&1; echo "rc=$?" >> $OUT/c5/api_cuda.txt
timeout 400 python3 scripts/device/run.py opencl $OUT/c5/ocl --only variants > $OUT/c5/ocl_runner.txt 2>&1 &
for fv in nlmeans:hw_symmetric gaussian:tvm_rows8_interior; do
    f=${fv%%:*}; v=${fv#*:}
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 400 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f --variant $v \
            --sanitizer-matrix > $OUT/c5/san/$v.$t.log 2>&1 &
    done
    timeout 300 $fl check --filter $f --variant $v -q > $OUT/c5/check_$v.txt 2>&1 &
done
for f in box maxpool; do timeout 300 $fl check --filter $f --quick -q > $OUT/c5/check_quick_$f.txt 2>&1; echo "rc=$?" >> $OUT/c5/check_quick_$f.txt; done
wait
echo "part 1: $(( $(date +%s) - start )) s" > $OUT/c5/times.txt
G="gaussian/hw_columns_first gaussian/hw_separable gaussian/cuda_rows8 gaussian/tvm_rows8_r128 gaussian/tvm_rows8 gaussian/tvm_rows8_interior"
timeout 200 python3 scripts/device/run.py verdict_shapes $OUT/c5/g --only gray,rgb --set gray.filters=gaussian \
    --set rgb.filters=gaussian --set gray.variants="$G" --set rgb.variants="$G" > $OUT/c5/gaussian_runner.txt 2>&1
echo "gaussian: $(( $(date +%s) - start )) s" >> $OUT/c5/times.txt
timeout 150 python3 scripts/device/run.py verdict_shapes $OUT/c5/n --only gray --set gray.filters=nlmeans > $OUT/c5/nlmeans_runner.txt 2>&1
echo "nlmeans: $(( $(date +%s) - start )) s" >> $OUT/c5/times.txt
timeout $(( 585 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c5/ncu --only ncu \
    --set ncu.cases="gaussian 8192 sigma=1 tvm_rows8_r128 tvm_rows8_interior
gaussian 1920x1080 sigma=1 tvm_rows8_r128 tvm_rows8_interior" > $OUT/c5/ncu_runner.txt 2>&1
echo "ncu: $(( $(date +%s) - start )) s" >> $OUT/c5/times.txt
tar -czf $OUT/c5.tgz -C $OUT c5 && rm -rf $OUT/c5
