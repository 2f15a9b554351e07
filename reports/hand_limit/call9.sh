# Issue 57, device call 9 (nvidia-h200): hw_running_sums with more rows' loads
# in flight for more registers (6 or 8 rows ahead at 128 registers, 8 blocks of
# 64 threads an SM; 32-row strips), and with fewer (2 ahead, 64 registers, 16
# blocks), beside itself at r = 1, 7, 15 at 8192² and 3840x2160; quick matrix first.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=.device-build/filterlab
mkdir -p $OUT/c9
for v in hw_running_sums_a8b8 hw_running_sums_r32a8b8 hw_running_sums_a6b8 hw_running_sums_a2b16; do
    timeout 60 $fl check --filter box --variant $v --quick -q > $OUT/c9/check_$v.txt 2>&1
done
for r in 1 7 15; do
    timeout 100 $fl bench --filter box --variant hw_running_sums --variant hw_running_sums_a8b8 --variant hw_running_sums_r32a8b8 \
        --variant hw_running_sums_a6b8 --variant hw_running_sums_a2b16 --sizes 8192,3840x2160 -p radius=$r \
        --min-time 0.1 --min-reps 10 --out $OUT/c9/bench_r$r -q > $OUT/c9/bench_r$r.txt 2>&1
done
tar -czf $OUT/c9.tgz -C $OUT c9 && rm -rf $OUT/c9
