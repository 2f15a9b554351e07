// Registrations as the schedules write them. A comment that mentions
// FILTERLAB_SCHEDULE(box, cpu, not_read) { is not read.
#include "schedule_registry.h"

// The contract's whole domain: no SUPPORTS.
  FILTERLAB_SCHEDULE( box,cpu , naive )    {
    p.output.compute_root();
}

// A space of two axes; a string with a brace "}" in the body.
FILTERLAB_SCHEDULE(box, cpu, sliding,
                   AXES("rows=16,32,[64]" " vectors=[1],2"))
{
    p.output.split(p.y, point["rows"], point["vectors"]); }
FILTERLAB_FROZEN(box, cpu, sliding_rows16,  sliding, "rows=16")  ;

// What it restricts, and another algorithm.
FILTERLAB_SCHEDULE_OF(box, running_sums, gpu, rows8, /* radius 1 only */ SUPPORTS( "radius=1" )) {
    if (true) {
        p.output.gpu_blocks(p.y);
    }
}

FILTERLAB_SCHEDULE(box, gpu, ranged, AXES("warps=2,[4]"),
                   SUPPORTS("radius=1..7")) { p.output.gpu_tile(p.x, p.y, 32, point["warps"]);
}

// The image read as 32-bit words; a frozen point reads as its base.
FILTERLAB_SCHEDULE_OF(box, running_sums, gpu, words, READS( "words" ), AXES("threads=[32],64")) {
    p.output.gpu_blocks(p.y);
}
FILTERLAB_FROZEN(box, gpu, words_t64, words, "threads=64");
