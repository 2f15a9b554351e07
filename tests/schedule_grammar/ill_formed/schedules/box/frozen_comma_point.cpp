// expect: schedules/box/frozen_comma_point.cpp:4: frozen schedule tile_64x4: point 'tile_x=64,tile_y=4': axes are joined by '+', not ',' (tile_x=64+tile_y=4)
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32],64 tile_y=[2],4")) {
}
FILTERLAB_FROZEN(box, gpu, tile_64x4, tile, "tile_x=64,tile_y=4");
