# Device call 13 (nvidia-h200), sixth session: the six-shape build of call 10 again at 4265056, whose
# tiled kernels clamp only what their strips read (hw_tiles is now the box's best hand kernel at
# four of the six shapes). The 3x3 box's row of scripts/verdict_rows.txt again, every class at every
# shape, gray and 4096x2304 RGB, and hw_tiles of both rows over the full check matrix.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c13
start=$(date +%s)
for f in box gaussian; do
    timeout 200 $fl check --filter $f --variant hw_tiles -q > $OUT/c13/check_$f.hw_tiles.txt 2>&1 &
done
wait
timeout 300 python3 scripts/device/run.py verdict_shapes $OUT/c13/g --only gray,rgb \
    --set gray.cases="box 8192,1920x1080,3840x2160,6000x4000,1001x997 radius=1 hw_wide_rows hw_running_sums hw_staged_rows hw_tiles cuda_lanes cuda_rows8 cuda_words_strips tvm_register_rows tvm_register_rows_interior tvm_rows8 npp_box" \
    --set rgb.cases="box 4096x2304 radius=1 hw_wide_rows hw_running_sums hw_staged_rows hw_tiles cuda_lanes cuda_rows8 cuda_words_strips tvm_register_rows tvm_register_rows_interior tvm_rows8 npp_box" > $OUT/c13/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" > $OUT/c13/times.txt
tar -czf $OUT/c13.tgz -C $OUT c13 && rm -rf $OUT/c13
