// expect: schedules/box/words_both_ways.cpp:2: WRITES("words") with READS("words"): a words output is written from bytes
FILTERLAB_SCHEDULE(box, Direct, gpu, wordy, READS("words"), WRITES("words")) {
}
