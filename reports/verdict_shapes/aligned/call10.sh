# Device call 10 (nvidia-h200), the bundle of call 9: compute-sanitizer over every
# CUDA variant of the box, the Gaussian, the max pool and Gaussian -> pool (as in
# call 9), then issue 57's first measurements (scripts/device/experiments/hand_limit.conf):
# every hand kernel of the memory-bound rows at 8192² beside the copy roofline of
# the same run, and the seeds' classic kernels at 4096² and 8192².
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
mkdir -p $OUT/c10
start=$(date +%s)
timeout 390 python3 scripts/device/run.py verdict_shapes $OUT/c10/s --only sanitize \
    --set sanitize.filters="box gaussian maxpool gaussian_maxpool" > $OUT/c10/sanitize_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c10/sanitize_runner.txt
timeout 150 python3 scripts/device/run.py hand_limit $OUT/c10/h --only memory,classic > $OUT/c10/hand_runner.txt 2>&1
echo "rc=$? after $(( $(date +%s) - start )) s" >> $OUT/c10/hand_runner.txt
tar -czf $OUT/c10.tgz -C $OUT c10 && rm -rf $OUT/c10
