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

// Columns first on the CPU: per output row, the 16-bit vertical sums of that
// row (5 input rows, 32 lanes a vector on AVX-512) into a one-row buffer that
// stays in L1, then the horizontal pass from it; strips of 32 rows over all
// cores. Why it should beat `tiled`: no buffer of 36 rows to fill and re-read.
FILTERLAB_SCHEDULE(gaussian, ColumnsFirst, cpu, columns_rows) {
    const Strips s = parallel_strips(p, 32, 2 * target.natural_vector_size<uint16_t>());
    p.column.compute_at(p.output, s.yi).vectorize(p.x, target.natural_vector_size<uint16_t>(), TailStrategy::RoundUp);
}

// columns_rows on the 16-bit algorithm (generators/gaussian.h,
// columns_first_u16): the horizontal pass takes the vertical sums' high and
// low bytes, so both passes run 16-bit lanes (32 a vector on AVX-512) and no
// 32-bit multiply (vpmulld, two micro-ops) is left. Why it should beat
// columns_rows: there the horizontal pass runs 32-bit lanes (half as many a
// vector) and widens every sum. Its space: the rows of a strip (the work
// split over the cores: fewer rows, more strips to balance).
FILTERLAB_SCHEDULE(gaussian, ColumnsFirstU16, cpu, columns_u16, AXES("rows=16,[32],64"),
                   FRONTIER("fastest Halide CPU Gaussian in the one run")) {
    const int lanes = target.natural_vector_size<uint16_t>();
    const Strips s = parallel_strips(p, point["rows"], lanes);
    p.column.compute_at(p.output, s.yi).vectorize(p.x, lanes, TailStrategy::RoundUp);
}
