// Registrations as the schedules write them. A comment that mentions
// FILTERLAB_SCHEDULE(box, Direct, cpu, not_read) { is not read.
#include "schedule_registry.h"

// The contract's whole domain: no SUPPORTS. On the frontier: built by default.
  FILTERLAB_SCHEDULE( box,Direct ,cpu , naive , FRONTIER ( "the baseline every schedule " "is measured against" ) )    {
    p.output.compute_root();
}

// A space of two axes; a string with a brace "}" in the body.
FILTERLAB_SCHEDULE(box, Direct, cpu, sliding,
                   AXES("rows=16,32,[64]" " vectors=[1],2"))
{
    p.output.split(p.y, point["rows"], point["vectors"]); }
FILTERLAB_FROZEN(box, cpu, sliding_rows16,  sliding, "rows" "=16")  ;

// What it restricts, another algorithm, and OpenCL refused.
FILTERLAB_SCHEDULE(box, RunningSums, gpu, rows8, /* radius 1 only */ CUDA_ONLY("predicated_vectors"), SUPPORTS( "radius=1" )) {
    if (true) {
        p.output.gpu_blocks(p.y);
    }
}

FILTERLAB_SCHEDULE(box, Direct, gpu, ranged, AXES("warps=2,[4]"),
                   SUPPORTS("radius=1..7")) { p.output.gpu_tile(p.x, p.y, 32, point["warps"]);
}

// The image read as 32-bit words; a frozen point reads as its base and is
// CUDA only with it; this one is on the frontier.
FILTERLAB_SCHEDULE(box, ColumnsFirstU16, gpu, words, CUDA_ONLY("no OpenCL twin"), READS( "words" ),
                   AXES("threads=[32],64 rows=[2],4")) {
    p.output.gpu_blocks(p.y);
}
FILTERLAB_FROZEN(box, gpu, words_t64, words,
                 "threads=64+rows=4", // the best
                 FRONTIER("the best point"));
