// expect: schedules/box/frozen_undeclared_value.cpp:4: frozen schedule tile_64: 'tile_x=64' is not a value tile declares (AXES("...") at line 2)
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32]")) {
}
FILTERLAB_FROZEN(box, gpu, tile_64, tile, "tile_x=64");
