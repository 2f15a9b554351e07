# The 3x3 median's packed 4 x 4 block (TVM's mirror of Halide's register_block) at each register cap: fewer
# instructions a pixel than the 2 x 4 block, at lower occupancy under TVM's __launch_bounds__ (call6.txt).
set -u
python3 scripts/device/run.py lever $OUT/a --only sweep --set sweep.schedules="median/tvm_register_block_pairs" 2>&1 | tail -3
{ cat $OUT/a/summary.txt; echo "=== sweep.txt"; cat $OUT/a/sweep.txt; } > $OUT/all.txt
rm -rf $OUT/a/runs $OUT/a/runs.tar
grep -c " ok$" $OUT/all.txt
