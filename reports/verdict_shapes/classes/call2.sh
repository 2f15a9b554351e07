# Device call 2 (nvidia-h200), the same carried build, right after call 1: the gray verdict
# bench of the box and median rows (their square, 1920x1080, 3840x2160, 6000x4000, 1001x997) on
# every path; then Nsight Compute on the rows bound by arithmetic (the 5x5 and 7x7 medians at
# 4096², NL-means at 1024²), each side's best, on the build's exact path at those squares.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
mkdir -p $OUT/c2
start=$(date +%s)
python3 scripts/device/run.py verdict_shapes $OUT/c2/v --only gray --set gray.filters="box median" > $OUT/c2/gray_runner.txt 2>&1
echo "gray box, median: $(( $(date +%s) - start )) s" > $OUT/c2/times.txt
timeout $(( 570 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c2/n --only ncu_arith > $OUT/c2/ncu_runner.txt 2>&1
echo "with ncu: $(( $(date +%s) - start )) s" >> $OUT/c2/times.txt
tar -czf $OUT/c2.tgz -C $OUT c2 && rm -rf $OUT/c2
