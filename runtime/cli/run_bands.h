// `filterlab run` on a PGM/PPM into a PGM/PPM: streamed in bands of rows
// (stream/streamed_run.h) in one process, or each MPI rank streaming its own
// share of the rows (mpi/file_bands.h). Host memory is then bounded by the
// bands in flight, not by the image.
#pragma once

#include "commands.h"
#include "filters.h"
#include "registry.h"

namespace filterlab::cli {

// Collective. True when the run can be streamed: files (not standard input
// or output) of binary PGM/PPM, no noise asked, a CPU or CUDA variant, and
// --whole-image not given.
bool runs_in_bands(const RunOptions &options, const Variant &variant);

// One process: streams the file; prints the summary and the phases.
int run_streamed_file(const RunOptions &options, const Variant &variant, const ParamValues &params);

// Under mpirun: each rank its share; rank 0 prints each rank's phases.
int run_file_over_ranks(const RunOptions &options, const Variant &variant, const ParamValues &params);

}  // namespace filterlab::cli
