// expect: schedules/box/cuda_only_cpu.cpp:2: CUDA_ONLY(...) on a cpu schedule: only a gpu schedule has an OpenCL build to refuse
FILTERLAB_SCHEDULE(box, Direct, cpu, tiled, CUDA_ONLY("warp shuffles")) {
}
