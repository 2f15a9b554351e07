# The one run of the verdict after TVM's sweeps: every GPU row of scripts/targets_rows.txt (hand, Halide, TVM with
# its frozen points, the peers), each variant checked against the reference before it is timed.
set -u
python3 scripts/device/run.py targets $OUT/t --only bench --set bench.rows=gpu 2>&1 | tail -4
cp $OUT/t/bench.txt $OUT/bench.txt
head -60 $OUT/t/machine.txt > $OUT/machine.txt
mkdir -p $OUT/r && tar -C $OUT/r -xf $OUT/t/runs.tar
find $OUT/r -name gallery -type d -prune -exec rm -rf {} + ; find $OUT/r -name results.json -delete
tar -C $OUT/r -cf $OUT/runs.tar . && rm -rf $OUT/t $OUT/r
ls -la $OUT
