# The last frozen points checked (full matrix, memcheck), and the 3x3 median's packed register block swept over
# more tiles (1 to 4 wide, 2 to 8 tall) at its row, the row's handwritten kernels timed after.
set -u
F="gaussian/tvm_rows8_r128 median/tvm_register_block_pairs_2x4_r96"
python3 scripts/device/run.py lever $OUT/a --only check,sweep --set check.variants="$F" \
  --set sweep.schedules="median/tvm_register_block_pairs" 2>&1 | tail -6
{ cat $OUT/a/summary.txt; for f in check sweep; do echo "=== $f.txt"; cat $OUT/a/$f.txt; done; } > $OUT/all.txt
head -60 $OUT/a/machine.txt > $OUT/machine.txt
rm -rf $OUT/a/runs $OUT/a/runs.tar
grep -c " ok$" $OUT/all.txt
