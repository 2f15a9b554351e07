# Issue 57, device call 7 (nvidia-h200), the build of the merged box kernel
# (hw_staged_rows, one group of rows ahead, strips as short as fill the GPU) and hw_running_sums on the shared
# column sums (box_columns.cuh): both over the full check matrix and under
# compute-sanitizer (memcheck with the leak check, racecheck, initcheck) on the
# sanitizer matrix; every hand kernel of the memory-bound rows at 8192² beside
# the copy roofline (hand_limit's memory step); the verdict's box rows again
# with the new hand kernel, gray at the six shapes and RGB at 4096x2304
# (verdict_shapes's gray and rgb steps).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
mkdir -p $OUT/c7/san
start=$(date +%s)
for v in hw_staged_rows hw_running_sums; do
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 300 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter box --variant $v \
            --sanitizer-matrix > $OUT/c7/san/box.$v.$t.log 2>&1 &
    done
done
for v in hw_staged_rows hw_running_sums; do
    timeout 200 $fl check --filter box --variant $v -q > $OUT/c7/check_$v.txt 2>&1
    echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c7/check_$v.txt
done
wait
echo "sanitizers done after $(( $(date +%s) - start )) s" > $OUT/c7/times.txt
timeout 90 python3 scripts/device/run.py hand_limit $OUT/c7/h --only memory > $OUT/c7/hand_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c7/hand_runner.txt
timeout 330 python3 scripts/device/run.py verdict_shapes $OUT/c7/v --only gray,rgb --set gray.filters=box \
    --set rgb.filters=box > $OUT/c7/verdict_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c7/verdict_runner.txt
tar -czf $OUT/c7.tgz -C $OUT c7 && rm -rf $OUT/c7
