# Device call 11 (nvidia-h200), the bundle of call 9: the compute-sanitizer runs
# call 9's time limit cut short (one tool on one variant each), all at once.
set -o pipefail
tar -xJf .device-build/bundle.tar.xz -C .device-build
python3 -c "import os; b='.device-build/bundle.tar.xz'; open('.device-build/.unpacked','w').write(f'{os.path.getsize(b)} {os.path.getmtime(b)}')"
export LD_LIBRARY_PATH=$PWD/.device-build/lib FILTERLAB_IMAGES=$PWD/tests/images
fl=$PWD/.device-build/filterlab
mkdir -p $OUT/c11
for job in box.npp_box.memcheck median.cuda_auto_anderson2021.initcheck median.cuda_auto_anderson2021.racecheck \
    median.cuda_register_block.initcheck median.cuda_sep_strip.initcheck median.cuda_sep_strip_r128.initcheck \
    nlmeans.cuda_auto_anderson2021.initcheck nlmeans.cuda_auto_anderson2021.racecheck nlmeans.cuda_fused.racecheck \
    nlmeans.cuda_per_offset.initcheck nlmeans.cuda_per_offset.memcheck nlmeans.cuda_per_offset.racecheck \
    nlmeans.cuda_scatter.racecheck nlmeans.cuda_symmetric.racecheck nlmeans.tvm_fused.racecheck \
    nlmeans.tvm_fused_rows4.racecheck; do
    IFS=. read -r f v tool <<<"$job"
    extra=$([ "$tool" = memcheck ] && echo "--leak-check full")
    timeout 480 compute-sanitizer --tool $tool $extra --error-exitcode 99 --print-limit 20 \
        $fl check --filter $f --variant $v --sanitizer-matrix -q > $OUT/c11/$job.log 2>&1 &
done
wait
tar -czf $OUT/c11.tgz -C $OUT c11 && rm -rf $OUT/c11
