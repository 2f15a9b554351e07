// expect: schedules/box/frozen_register_cap_value.cpp:4: frozen schedule tile_r100: 'max_registers=100' is not a register cap of the launch's axis (64, 96, 128, 168, 255)
FILTERLAB_SCHEDULE(box, Direct, gpu, tile, AXES("tile_x=16,[32]")) {
}
FILTERLAB_FROZEN(box, gpu, tile_r100, tile, "max_registers=100");
