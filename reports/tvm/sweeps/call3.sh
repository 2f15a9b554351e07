# TVM's sweeps on the H100, the running sums again: every point checked on the full matrix (the quick one has no
# radius 7 or 15, so call2 skipped every case and timed no point) and timed at its rows beside the registered default,
# the row's handwritten kernels timed after (lever's sweep step).
set -u
S="box/tvm_running_sums_banks"
python3 scripts/device/run.py lever $OUT/a --only sweep --set sweep.schedules="$S" --set sweep.quick=none 2>&1 | tail -6
{ cat $OUT/a/summary.txt; echo "=== sweep.txt"; cat $OUT/a/sweep.txt; } > $OUT/all.txt
head -60 $OUT/a/machine.txt > $OUT/machine.txt
rm -rf $OUT/a/runs $OUT/a/runs.tar
grep -c " ok$" $OUT/all.txt
