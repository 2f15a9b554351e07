// expect: schedules/box/axis_unreadable.cpp:2: AXES("rows=16;[32]"): cannot read axis 'rows=16;[32]' (name=v,[default],v)
FILTERLAB_SCHEDULE(box, Direct, cpu, sliding, AXES("rows=16;[32]")) {
}
