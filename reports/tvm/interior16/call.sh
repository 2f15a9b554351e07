# tvm_interior16 and its 8-row tiles: checked (full matrix, memcheck), at 8192^2 against the reference byte for
# byte (two sigmas each; the 8-row one under memcheck too), timed beside tvm_rows8, cuda_rows8 and the hand kernel; ncu.
set -u
V="gaussian/tvm_interior16 gaussian/tvm_interior16_rows8"
python3 scripts/device/run.py lever $OUT/l --only check,bench,ncu --set check.variants="$V" \
  --set bench.variants="$V gaussian/tvm_rows8 gaussian/cuda_rows8 gaussian/hw_columns_first" \
  --set ncu.variants="gaussian/tvm_interior16_rows8" 2>&1 | tail -4
export LD_LIBRARY_PATH=$PWD/.device-build/lib:${LD_LIBRARY_PATH:-}
F=.device-build/filterlab
python3 -c "
import numpy as np; im = np.random.default_rng(5).integers(0, 256, (8192, 8192), dtype=np.uint8)
open('/root/big.pgm', 'wb').write(b'P5\n8192 8192\n255\n' + im.tobytes())"
{ for s in 1 2.5; do
    $F run --filter gaussian --variant reference -p sigma=$s -i /root/big.pgm -o /root/b$s.pgm --whole-image
    for v in tvm_interior16 tvm_interior16_rows8; do
      echo "\$ filterlab run --filter gaussian --variant $v -p sigma=$s (8192^2 random); cmp with the reference's"
      $F run --filter gaussian --variant $v -p sigma=$s -i /root/big.pgm -o /root/a.pgm --whole-image
      cmp /root/a.pgm /root/b$s.pgm && echo "identical ($v, sigma=$s)"
    done
  done
  echo "\$ compute-sanitizer --tool memcheck filterlab run --filter gaussian --variant tvm_interior16_rows8 -p sigma=1 (8192^2); cmp"
  timeout 300 /usr/local/cuda/bin/compute-sanitizer --tool memcheck --error-exitcode 99 $F run --filter gaussian \
    --variant tvm_interior16_rows8 -p sigma=1 -i /root/big.pgm -o /root/c.pgm --whole-image 2>&1 | tail -3
  cmp /root/c.pgm /root/b1.pgm && echo "identical under memcheck (sigma=1)"
} > $OUT/big.txt 2>&1
cat $OUT/l/summary.txt > $OUT/all.txt
for f in $OUT/l/check.txt $OUT/l/bench.txt $OUT/big.txt $OUT/l/ncu.txt; do echo "=== $f"; cat $f; done >> $OUT/all.txt
rm -rf $OUT/l/runs $OUT/l/ncu
grep -E "identical|ERROR|differ" $OUT/big.txt; grep -E "ok$|FAIL|passed" $OUT/l/check.txt | tail -4; grep -E "tvm_|cuda_rows8|hw_col" $OUT/l/bench.txt | tail -6; grep -E "^gaussian_sigma" $OUT/l/ncu.txt
