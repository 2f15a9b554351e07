// expect: schedules/box/unknown_keyword.cpp:2: SUPORTS(...): a registration takes SUPPORTS("...") and AXES("...") only
FILTERLAB_SCHEDULE(box, cpu, naive, SUPORTS("radius=1")) {
}
