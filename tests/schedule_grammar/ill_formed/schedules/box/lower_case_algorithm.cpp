// expect: schedules/box/lower_case_algorithm.cpp:2: the algorithm must be a type name ([A-Z][A-Za-z0-9]*, as RunningSums), not 'running_sums'
FILTERLAB_SCHEDULE(box, running_sums, gpu, sums_strips) {
}
