// expect: schedules/box/schedule_of.cpp:2: FILTERLAB_SCHEDULE_OF is gone: FILTERLAB_SCHEDULE(<filter>, <Algorithm>, cpu|gpu, <name>...)
FILTERLAB_SCHEDULE_OF(box, running_sums, gpu, sums_strips) {
}
