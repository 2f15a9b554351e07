// expect: schedules/box/frozen_leading_zero.cpp:4: frozen schedule tile_64: point 'tile_x=064': 'tile_x=064' is not axis=value (axis: [a-z][a-z0-9_]*; value: an integer, no leading zeros)
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32],64")) {
}
FILTERLAB_FROZEN(box, gpu, tile_64, tile, "tile_x=064");
