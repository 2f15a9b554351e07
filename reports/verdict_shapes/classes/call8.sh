# Device call 8 (nvidia-h200), fifth session: call 6's bundle again. The 16 sanitizer runs that
# call 7's time limit cut short (compute-sanitizer over each variant's sanitizer matrix, the six
# build shapes' exact paths in it), all side by side.
set -o pipefail
eval "$(python3 scripts/device/run.py --shell-env)"
mkdir -p $OUT/c8
for job in box:cuda_shared_tile:racecheck box:cuda_sums_strips_t32v:initcheck box:cuda_tile:initcheck box:cuda_words_strips:initcheck box:tvm_direct:initcheck box:tvm_register_rows:initcheck median:cuda_auto_anderson2021:initcheck median:cuda_register_block:initcheck median:cuda_sep_strip:initcheck median:cuda_sep_strip_r128:initcheck median:cuda_sep_tile_4x1_u32:initcheck median:cuda_sep_tile_4x1_u32_r168:initcheck median:cuda_shared_columns:initcheck median:cuda_tile:initcheck median:tvm_register_block:initcheck median:tvm_register_block_pairs_2x4_r96:initcheck ; do
    IFS=: read f v t <<< "$job"
    extra=$([ $t = memcheck ] && echo "--leak-check full" || true)
    timeout 330 $san --tool $t $extra --error-exitcode 99 --print-limit 20 $fl check --filter $f --variant $v \
        --sanitizer-matrix > $OUT/c8/$f.$v.$t.log 2>&1 &
done
wait
tar -czf $OUT/c8.tgz -C $OUT c8 && rm -rf $OUT/c8
