// expect: schedules/box/no_body.cpp:2: the registration must be followed by the schedule's body, { ... }
FILTERLAB_SCHEDULE(box, Direct, cpu, naive);
