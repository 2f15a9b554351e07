// expect: schedules/box/unclosed_body.cpp:2: the schedule's body has no closing '}'
FILTERLAB_SCHEDULE(box, Direct, cpu, naive) {
    if (true) {
}
