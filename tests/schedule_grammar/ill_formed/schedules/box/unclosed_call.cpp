// expect: schedules/box/unclosed_call.cpp:2: FILTERLAB_SCHEDULE(...: no closing ')'
FILTERLAB_SCHEDULE(box, Direct, cpu, naive {
}
