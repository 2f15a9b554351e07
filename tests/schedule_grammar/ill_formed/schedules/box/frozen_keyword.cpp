// expect: schedules/box/frozen_keyword.cpp:4: READS(...): a frozen point (the rest is its base's) takes FRONTIER("...") only
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32],64")) {
}
FILTERLAB_FROZEN(box, gpu, tile_64, tile, "tile_x=64", READS("words"));
