// expect: schedules/box/frozen_without_semicolon.cpp:4: FILTERLAB_FROZEN(...) must end with ';'
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32]")) {
}
FILTERLAB_FROZEN(box, gpu, tile_16, tile, "tile_x=16")
