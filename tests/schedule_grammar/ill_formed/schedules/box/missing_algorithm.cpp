// expect: schedules/box/missing_algorithm.cpp:2: FILTERLAB_SCHEDULE(box, <Algorithm>, cpu, naive...): name the algorithm it schedules, a type of generators/box.h
FILTERLAB_SCHEDULE(box, cpu, naive) {
}
