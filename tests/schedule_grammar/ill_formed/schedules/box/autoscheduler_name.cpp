// expect: schedules/box/autoscheduler_name.cpp:2: schedule names starting auto_ are the autoschedulers'
FILTERLAB_SCHEDULE(box, Direct, cpu, auto_mine) {
}
