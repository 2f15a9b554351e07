// expect: schedules/box/unknown_keyword.cpp:2: SUPORTS(...): a registration takes SUPPORTS("..."), AXES("...") and READS("...") only
FILTERLAB_SCHEDULE(box, cpu, naive, SUPORTS("radius=1")) {
}
