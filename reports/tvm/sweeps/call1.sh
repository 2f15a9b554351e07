# TVM's sweeps on the H100, first half: every point of each schedule's axes checked (quick matrix) and timed at
# its rows beside the registered default, the row's handwritten kernels timed after (lever's sweep step).
set -u
S="gaussian/tvm_rows8 gaussian_maxpool/tvm_fused maxpool/tvm_vectorized box/tvm_register_rows"
python3 scripts/device/run.py lever $OUT/a --only sweep --set sweep.schedules="$S" 2>&1 | tail -6
{ cat $OUT/a/summary.txt; echo "=== sweep.txt"; cat $OUT/a/sweep.txt; } > $OUT/all.txt
head -60 $OUT/a/machine.txt > $OUT/machine.txt
rm -rf $OUT/a/runs $OUT/a/runs.tar
grep -c " ok$" $OUT/all.txt
