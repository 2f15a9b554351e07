# Device call 10 (nvidia-h200), sixth session: the frontier of 14dc4cc..b25b7b8 (the tiled hand
# kernels, the box's TVM interior, store_strip's rolled store) built with
# FILTERLAB_SHAPES=1920x1080,3840x2160,6000x4000,4096x2304,1001x997,8192x8192,aligned and carried as
# `scripts/device_bundle.sh --cli`. Side by side: compute-sanitizer (memcheck with the leak check,
# racecheck, initcheck; the sanitizer matrix holds the build's shapes, so every exact path) on box
# hw_tiles, gaussian hw_tiles and box tvm_register_rows_interior; the full check matrix of those and
# of every hand kernel whose store changed (store_strip, store_bytes). Then the box's and the
# Gaussian's rows of scripts/verdict_rows.txt in one run of every class at every shape, gray.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c10/san $OUT/c10/check
start=$(date +%s)
for fv in box:hw_tiles gaussian:hw_tiles box:tvm_register_rows_interior; do
    f=${fv%%:*}; v=${fv#*:}
    for t in memcheck racecheck initcheck; do
        extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
        timeout 400 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f --variant $v \
            --sanitizer-matrix > $OUT/c10/san/$f.$v.$t.log 2>&1 &
    done
done
for fv in box:hw_tiles gaussian:hw_tiles box:tvm_register_rows_interior median:hw_row_pairs median:hw_packed \
          maxpool:hw_naive maxpool:hw_vectorized maxpool:hw_streaming gaussian:hw_separable box:hw_wide_rows \
          gaussian:hw_columns_first gaussian_maxpool:hw_fused_columns_first gaussian_maxpool:hw_fused \
          gaussian_maxpool:hw_two_stage gaussian_maxpool:hw_vectorized; do
    f=${fv%%:*}; v=${fv#*:}
    timeout 400 $fl check --filter $f --variant $v -q > $OUT/c10/check/$f.$v.txt 2>&1 &
done
wait
echo "checks and sanitizers: $(( $(date +%s) - start )) s" > $OUT/c10/times.txt
timeout $(( 580 - ($(date +%s) - start) )) python3 scripts/device/run.py verdict_shapes $OUT/c10/g --only gray \
    --set gray.filters="box gaussian" > $OUT/c10/rows_runner.txt 2>&1
echo "rows: $(( $(date +%s) - start )) s" >> $OUT/c10/times.txt
tar -czf $OUT/c10.tgz -C $OUT c10 && rm -rf $OUT/c10
