// expect: schedules/box/frontier_twice.cpp:2: FRONTIER(...) given twice
FILTERLAB_SCHEDULE(box, Direct, cpu, tiled, FRONTIER("the classic one"), FRONTIER("the fastest")) {
}
