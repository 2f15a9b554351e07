// expect: schedules/box/unknown_view.cpp:2: READS("halfwords"): a pipeline reads its image as bytes or words
FILTERLAB_SCHEDULE(box, Direct, gpu, halves, READS("halfwords")) {
}
