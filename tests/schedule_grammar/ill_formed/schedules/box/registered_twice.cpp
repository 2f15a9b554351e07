// expect: schedules/box/registered_twice.cpp:5: cpu schedule naive of box is registered twice (also schedules/box/registered_twice.cpp:2)
FILTERLAB_SCHEDULE(box, Direct, cpu, naive) {
}

FILTERLAB_SCHEDULE(box, Direct, cpu,
                   naive) {
}
