# (1) Gaussian -> pool at 128 registers: columns_fused's 12 points beside columns_fused_words' 8, the frozen points and the
# hand kernels in one call; (2) the median 3x3's words twin checked (full matrix, memcheck), swept, beside register_block;
# (3) every CUDA median variant re-checked (their libraries regenerated), tvm_interior16 again at 8192^2 and test_api --cuda.
set -u
G=gaussian_maxpool
python3 scripts/device/run.py lever $OUT/g --only sweep,bench --set sweep.schedules="$G/cuda_columns_fused $G/cuda_columns_fused_words" \
  --set bench.variants="$G/cuda_columns_fused_r128 $G/cuda_columns_fused_words_r128" \
  --set experiment.env=HL_CUDA_JIT_MAX_REGISTERS=128 2>&1 | tail -3
M=median/cuda_register_block_words
python3 scripts/device/run.py lever $OUT/m --only check,sweep,bench --set check.variants="$M" --set sweep.schedules="$M" \
  --set bench.variants="median/cuda_register_block $M median/hw_row_pairs" 2>&1 | tail -3
export LD_LIBRARY_PATH=$PWD/.device-build/lib:${LD_LIBRARY_PATH:-}
F=.device-build/filterlab
python3 -c "
import numpy as np; im = np.random.default_rng(5).integers(0, 256, (8192, 8192), dtype=np.uint8)
open('/root/big.pgm', 'wb').write(b'P5\n8192 8192\n255\n' + im.tobytes())"
{ echo "\$ filterlab check --filter median -q"; $F check --filter median -q | grep -vE " ok$"
  $F run --filter gaussian --variant reference -i /root/big.pgm -o /root/b.pgm --whole-image
  $F run --filter gaussian --variant tvm_interior16 -i /root/big.pgm -o /root/a.pgm --whole-image
  cmp /root/a.pgm /root/b.pgm && echo "tvm_interior16 at 8192^2: identical to the reference"
  echo "\$ test_api --cuda"; .device-build/test_api --cuda 2>&1 | tail -3; } > $OUT/regress.txt 2>&1
cat $OUT/g/summary.txt $OUT/m/summary.txt > $OUT/all.txt
for f in $OUT/g/sweep.txt $OUT/g/bench.txt $OUT/m/check.txt $OUT/m/sweep.txt $OUT/m/bench.txt $OUT/regress.txt; do echo "=== $f"; cat $f; done >> $OUT/all.txt
rm -rf $OUT/g/runs $OUT/m/runs
grep -E "columns_fused|hw_fused|register_block|hw_row|ERROR|identical|passed|failed" $OUT/all.txt | grep -v "^\\$" | cut -c1-130
