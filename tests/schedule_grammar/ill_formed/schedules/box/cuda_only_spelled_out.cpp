// expect: schedules/box/cuda_only_spelled_out.cpp:2: CUDA_ONLY("warp shuffles: OpenCL in Halide 21 does not support gpu_lanes()"): name it, CUDA_ONLY("warp_shuffles") (schedule_grammar.OPENCL_REFUSALS)
FILTERLAB_SCHEDULE(box, Direct, gpu, lanes, CUDA_ONLY("warp shuffles: OpenCL in Halide 21 does not support gpu_lanes()")) {
}
