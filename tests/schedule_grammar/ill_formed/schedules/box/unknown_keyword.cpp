// expect: schedules/box/unknown_keyword.cpp:2: SUPORTS(...): a registration takes SUPPORTS("..."), AXES("..."), READS("..."), WRITES("..."), CUDA_ONLY("...") and FRONTIER("...") only
FILTERLAB_SCHEDULE(box, Direct, cpu, naive, SUPORTS("radius=1")) {
}
