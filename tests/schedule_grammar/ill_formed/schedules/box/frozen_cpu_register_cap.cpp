// expect: schedules/box/frozen_cpu_register_cap.cpp:4: frozen schedule sliding_r128: 'max_registers=128' is not a value sliding declares (AXES("...") at line 2)
FILTERLAB_SCHEDULE(box, Direct, cpu, sliding, AXES("rows=8,[16]")) {
}
FILTERLAB_FROZEN(box, cpu, sliding_r128, sliding, "max_registers=128");
