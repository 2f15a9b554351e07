// CPU schedules of the 5x5 Gaussian. Outputs use GuardWithIf (any size);
// intermediates may round up (the input is clamped).
#include "gaussian.h"
#include "schedule_helpers.h"
#include "schedule_registry.h"

using namespace Halide;
using filterlab::schedules::parallel_strips;
using filterlab::schedules::Strips;

// Everything at root, serial: the baseline.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, cpu, naive,
                   FRONTIER("the baseline every CPU schedule is measured against")) {
    p.row.compute_root();
    p.output.compute_root();
}

// Line buffer: within each strip of 64 rows the row pass slides down one row
// per output row (5 rows kept), so each input row is filtered horizontally once.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, cpu, sliding, FRONTIER("the classic line buffer (sliding window)")) {
    const Strips s = parallel_strips(p, 64, 2 * target.natural_vector_size<uint16_t>());
    p.row.store_at(p.output, s.strip).compute_at(p.output, s.yi).vectorize(p.x, target.natural_vector_size<uint16_t>(),
                                                                            TailStrategy::RoundUp);
}

// Tiles of 32 rows: the row pass of a tile (16-bit lanes, 36 rows) computed
// vectorised into a small buffer that stays in L1/L2, tiles over all cores.
FILTERLAB_SCHEDULE(gaussian, RowsFirst, cpu, tiled, FRONTIER("the classic tiling")) {
    const Strips s = parallel_strips(p, 32, 2 * target.natural_vector_size<uint16_t>());
    p.row.compute_at(p.output, s.strip).vectorize(p.x, target.natural_vector_size<uint16_t>(), TailStrategy::RoundUp);
}

// Columns first: per output row, its 16-bit vertical sums (5 input rows) into a
// one-row buffer in L1, then the horizontal pass from it; strips over the cores.
// Why it should beat `tiled`: no buffer of 36 rows to fill and re-read.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, cpu, columns_rows) {
    const Strips s = parallel_strips(p, 32, 2 * target.natural_vector_size<uint16_t>());
    p.column.compute_at(p.output, s.yi).vectorize(p.x, target.natural_vector_size<uint16_t>(), TailStrategy::RoundUp);
}

// columns_rows on ColumnsFirstU16: the horizontal pass works on the vertical sums'
// high and low bytes, so both passes run 16-bit lanes and no 32-bit multiply
// (vpmulld) is left, where columns_rows' horizontal pass runs 32-bit lanes, half as
// many a vector. Its space: rows a strip (fewer, more strips to balance the cores).
FILTERLAB_SCHEDULE(gaussian, ColumnsFirstU16, cpu, columns_u16, AXES("rows=16,[32],64"),
                   FRONTIER("fastest Halide CPU Gaussian in the one run")) {
    const int lanes = target.natural_vector_size<uint16_t>();
    const Strips s = parallel_strips(p, point["rows"], lanes);
    p.column.compute_at(p.output, s.yi).vectorize(p.x, lanes, TailStrategy::RoundUp);
}
