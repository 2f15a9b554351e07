# Gaussian -> pool's words twin: checked (full matrix, memcheck), swept at Halide's 64 and at 128 registers,
# its bytes schedules and the hand kernels in the same call; then the regenerated libraries' CUDA checks.
set -u
W=gaussian_maxpool/cuda_columns_fused_words
python3 scripts/device/run.py lever $OUT/l --only check,sweep,bench --set check.variants="$W" --set sweep.schedules="$W" \
  --set bench.variants="gaussian_maxpool/cuda_columns_fused gaussian_maxpool/cuda_columns_fused_r128 $W" 2>&1 | tail -5
python3 scripts/device/run.py lever $OUT/c128 --only sweep --set sweep.schedules="$W" --set sweep.then= \
  --set experiment.env=HL_CUDA_JIT_MAX_REGISTERS=128 2>&1 | tail -3
export LD_LIBRARY_PATH=$PWD/.device-build/lib:${LD_LIBRARY_PATH:-}
B=.device-build
{ for f in gaussian maxpool gaussian_maxpool; do echo "\$ filterlab check --filter $f -q"; $B/filterlab check --filter $f -q | grep -vE " ok$"; done
  echo "\$ test_api --cuda"; $B/test_api --cuda 2>&1 | tail -3
  echo "\$ test_halide_launch --gpu"; $B/test_halide_launch --gpu 2>&1 | tail -3; } > $OUT/regress.txt 2>&1
cat $OUT/l/summary.txt $OUT/c128/summary.txt > $OUT/all.txt
for f in $OUT/l/check.txt $OUT/l/sweep.txt $OUT/l/bench.txt $OUT/c128/sweep.txt $OUT/regress.txt; do echo "=== $f"; cat $f; done >> $OUT/all.txt
head -60 $OUT/l/machine.txt > $OUT/machine.txt
rm -rf $OUT/l/runs $OUT/c128/runs
tail -40 $OUT/regress.txt
