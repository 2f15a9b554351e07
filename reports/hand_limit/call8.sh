# Issue 57, device call 8 (nvidia-h200), the bundle of call 7: Nsight Compute on
# the box's two running-sums kernels at 1024² (about 1001x997), where hw_staged_rows is the
# faster, and at 8192², where hw_running_sums is (r = 1 and 15).
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
mkdir -p $OUT/c8
timeout 200 python3 scripts/device/run.py hand_limit $OUT/c8/ncu --only ncu --set ncu.cases="box 1024 radius=1 hw_staged_rows hw_running_sums
box 1024 radius=15 hw_staged_rows hw_running_sums
box 8192 radius=1 hw_staged_rows hw_running_sums
box 8192 radius=15 hw_staged_rows hw_running_sums" > $OUT/c8/ncu_runner.txt 2>&1
echo "rc=$?" >> $OUT/c8/ncu_runner.txt
tar -czf $OUT/c8.tgz -C $OUT c8 && rm -rf $OUT/c8
