// expect: schedules/box/another_filter.cpp:2: a schedule of median in a source of box (schedules/box/)
FILTERLAB_SCHEDULE(median, Direct, cpu, naive) {
}
