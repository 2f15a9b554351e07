// expect: schedules/box/writes_on_cpu.cpp:2: WRITES("words") on a cpu schedule: the CPU stores whole vectors of bytes already
FILTERLAB_SCHEDULE(box, Direct, cpu, wordy, WRITES("words")) {
}
