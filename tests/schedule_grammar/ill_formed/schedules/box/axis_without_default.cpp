// expect: schedules/box/axis_without_default.cpp:2: AXES("rows=16,32"): axis rows must mark exactly one default value, as [value]
FILTERLAB_SCHEDULE(box, Direct, cpu, sliding, AXES("rows=16,32")) {
}
