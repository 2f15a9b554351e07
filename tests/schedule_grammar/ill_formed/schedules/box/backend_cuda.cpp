// expect: schedules/box/backend_cuda.cpp:2: backend 'cuda': a schedule is cpu or gpu (a gpu schedule is built for cuda and opencl)
FILTERLAB_SCHEDULE(box, Direct, cuda, tile) {
}
