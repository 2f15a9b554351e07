# Issue 54, device call 19 (nvidia-h200), eighth session: the six-shape build (of 3f03508, as the
# eighth session's calls 3-4 of reports/hand_limit/blocks). compute-sanitizer memcheck (leak check),
# racecheck and initcheck on the sanitizer matrix, which since the seventh session launches each
# build shape at every value a variant lists, for the frontier variants whose listed values go
# beyond the defaults and were last sanitized before that (TVM's box at radius 1-3 and 1-15, the
# medians' libraries of sizes 3, 5 and 7). 14 jobs at a time.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
source scripts/device/steps.sh
start=$(date +%s)
export STEP_TIMEOUT=540 OUT fl san
one() { sanitize_variant "$OUT/c19" "$1" "$2" "$3"; wait; }
export -f one sanitize_variant
for v in "box tvm_direct" "box tvm_register_rows" "box tvm_register_rows_interior" "median tvm_sep_strip_pairs_1warp" \
         "median tvm_tile" "median cuda_sep_strip" "median cuda_sep_strip_r128" "median cuda_sep_tile_4x1_u32" \
         "median cuda_sep_tile_4x1_u32_r168" "median cuda_shared_columns" "median cuda_tile" "median cuda_auto_anderson2021"; do
    for t in memcheck racecheck initcheck; do echo "$v $t"; done
done | xargs -P 14 -L 1 bash -c 'one "$@"' _
echo "sanitizers: $(( $(date +%s) - start )) s" > $OUT/c19/times.txt
tar -czf $OUT/c19.tgz -C $OUT c19 && rm -rf $OUT/c19
