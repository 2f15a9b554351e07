# TVM's frozen points checked (full matrix, then memcheck over the sanitizer matrix), then the register cap swept
# (the launch axis, __maxnreg__) at the frozen points and at the schedules that mirror Halide's, each at its rows
# beside the registered point, the rows' handwritten kernels timed after (lever's check and sweep steps).
set -u
F="median/tvm_register_block_pairs_2x4 median/tvm_sep_strip_pairs_1warp maxpool/tvm_vectorized_4x4 box/tvm_running_sums_long"
S="gaussian/tvm_rows8 gaussian_maxpool/tvm_fused box/tvm_running_sums_long median/tvm_register_block_pairs_2x4 median/tvm_sep_strip_pairs_1warp"
python3 scripts/device/run.py lever $OUT/a --only check,sweep --set check.variants="$F" --set sweep.schedules="$S" \
  --set sweep.quick="gaussian gaussian_maxpool median" 2>&1 | tail -6
{ cat $OUT/a/summary.txt; for f in check sweep; do echo "=== $f.txt"; cat $OUT/a/$f.txt; done; } > $OUT/all.txt
head -60 $OUT/a/machine.txt > $OUT/machine.txt
rm -rf $OUT/a/runs $OUT/a/runs.tar
grep -c " ok$" $OUT/all.txt
