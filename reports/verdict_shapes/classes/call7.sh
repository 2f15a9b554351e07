# Device call 7 (nvidia-h200), fifth session: call 6's bundle (the frontier of af48f33 built with
# FILTERLAB_SHAPES=1920x1080,3840x2160,6000x4000,4096x2304,1001x997,8192x8192,aligned). The
# verdict_shapes experiment's sanitize step: compute-sanitizer (memcheck with the leak check,
# racecheck, initcheck) over every frontier CUDA variant of the five image filters but NL-means,
# each on `filterlab check --sanitizer-matrix`, whose matrix holds the build's shapes, so that each
# DSL variant's exact path at every build shape and its aligned path run under each tool; 16 jobs
# side by side. NL-means' variants under the tools: the second session's run (default build) and
# this session's calls 1 and 5 (hw_symmetric).
set -o pipefail
mkdir -p $OUT/c7
timeout 560 python3 scripts/device/run.py verdict_shapes $OUT/c7/s --only sanitize \
    --set sanitize.filters="box median gaussian maxpool gaussian_maxpool" > $OUT/c7/runner.txt 2>&1
echo "rc=$?" >> $OUT/c7/runner.txt
tar -czf $OUT/c7.tgz -C $OUT c7 && rm -rf $OUT/c7
