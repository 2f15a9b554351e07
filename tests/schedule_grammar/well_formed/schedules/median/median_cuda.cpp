#include "schedule_registry.h"

// Every size of the filter's compile-time parameter: one library each.
FILTERLAB_SCHEDULE(median, Direct, gpu, tile, FRONTIER("the classic tile")) {
    p.output.gpu_tile(p.x, p.y, 16, 16);
}

// Size 3 only.
FILTERLAB_SCHEDULE(median, Direct, gpu, register_block, SUPPORTS("size=3"), AXES("block=2,3,[4]")) {
    p.output.gpu_tile(p.x, p.y, point["block"], 8);
}
