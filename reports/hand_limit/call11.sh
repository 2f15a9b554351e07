# Issue 57, device call 11 (nvidia-h200): call 10's build (one clamped reader and one store shared
# by the box's running-sums kernels, box_columns.cuh) with hw_staged_rows's previous form registered beside
# it as hw_staged_rows_prev, timed in one run at 8192²: the shared code was not kept.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
mkdir -p $OUT/ab
for r in 15 7 1; do
    timeout 60 $fl bench --filter box --variant hw_staged_rows --variant hw_staged_rows_prev --variant hw_running_sums --sizes 8192 -p radius=$r \
        --min-time 0.2 --min-reps 20 --out $OUT/ab/b$r -q > $OUT/ab/b$r.txt 2>&1
done
tar -czf $OUT/ab.tgz -C $OUT ab && rm -rf $OUT/ab
