// expect: schedules/box/bad_name.cpp:2: the schedule's name must be a name ([a-z][a-z0-9_]*), not 'Naive'
FILTERLAB_SCHEDULE(box, Direct, cpu, Naive) {
}
