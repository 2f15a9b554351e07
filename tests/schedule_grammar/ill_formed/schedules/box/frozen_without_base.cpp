// expect: schedules/box/frozen_without_base.cpp:2: frozen schedule tile_64: no cpu schedule tile of box registered before it
FILTERLAB_FROZEN(box, cpu, tile_64, tile, "tile_x=64");
