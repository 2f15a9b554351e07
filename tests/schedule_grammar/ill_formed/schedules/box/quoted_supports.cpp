// expect: schedules/box/quoted_supports.cpp:2: FILTERLAB_SCHEDULE(<filter>, cpu|gpu, <name>[, SUPPORTS("...")][, AXES("...")]) expected: "radius=1..15" goes in SUPPORTS("...") (what it restricts) or AXES("...") (its space)
FILTERLAB_SCHEDULE(box, cpu, naive, "radius=1..15") {
}
