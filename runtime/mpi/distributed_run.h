// `mpirun -n N filterlab run`: one image filtered in bands of rows over the
// ranks (bands.h). Rank 0 holds the image; it scatters the bands
// (MPI_Scatterv), neighbours exchange their halo rows (MPI_Sendrecv), each
// rank runs the variant on its band, and rank 0 gathers the rows
// (MPI_Gatherv). The result is byte-identical to one rank's.
#pragma once

#include "filters.h"
#include "image.h"
#include "registry.h"

namespace filterlab::mpi {

// Seconds of each phase, the slowest rank's.
struct PhaseTimes {
    double scatter = 0, halo = 0, filter = 0, gather = 0;
    int bands = 0;  // ranks that had rows
};

// Collective: every rank calls it; `input` matters on rank 0 only. Returns
// the output on rank 0 (an empty image elsewhere). A failure on any rank
// throws AgreedError on all.
Image run_in_bands(const Variant &variant, const Image &input, const ParamValues &params, PhaseTimes &times);

}  // namespace filterlab::mpi
