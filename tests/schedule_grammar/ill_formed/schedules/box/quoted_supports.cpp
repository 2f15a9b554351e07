// expect: schedules/box/quoted_supports.cpp:2: FILTERLAB_SCHEDULE(<filter>, <Algorithm>, cpu|gpu, <name>[, SUPPORTS("...")][, AXES("...")][, READS("...")][, WRITES("...")][, CUDA_ONLY("...")][, FRONTIER("...")]) expected: "radius=1..15" goes in SUPPORTS("...") (what it restricts) or AXES("...") (its space)
FILTERLAB_SCHEDULE(box, Direct, cpu, naive, "radius=1..15") {
}
