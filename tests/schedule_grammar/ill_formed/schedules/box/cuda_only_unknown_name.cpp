// expect: schedules/box/cuda_only_unknown_name.cpp:2: CUDA_ONLY("warp_shufles"): no such reason; name one of predicated_vectors, warp_shuffles, pocl_unwritten, or say why
FILTERLAB_SCHEDULE(box, Direct, gpu, lanes, CUDA_ONLY("warp_shufles")) {
}
