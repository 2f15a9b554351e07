// expect: schedules/box/cuda_only_without_why.cpp:2: CUDA_ONLY(""): say why
FILTERLAB_SCHEDULE(box, Direct, gpu, lanes, CUDA_ONLY("")) {
}
