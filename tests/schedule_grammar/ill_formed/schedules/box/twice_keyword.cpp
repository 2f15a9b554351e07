// expect: schedules/box/twice_keyword.cpp:2: AXES(...) given twice
FILTERLAB_SCHEDULE(box, Direct, cpu, naive, AXES("a=[1]"), AXES("b=[1]")) {
}
