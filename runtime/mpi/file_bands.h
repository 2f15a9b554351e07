// `mpirun -n N filterlab run` from a binary PGM/PPM to a PGM/PPM, with no
// rank 0 in the data path: the rows of such a file sit at computable
// offsets, so each rank streams its own share of the output rows
// (stream/streamed_run.h: its bands read by offset with their halo rows,
// filtered on its GPU through pinned staging, written by offset) into the
// temporary that rank 0 made beside the output with the header in it; rank 0
// renames the temporary onto the output only once every rank has succeeded.
// So the all-or-nothing rule of one process holds: a failure on any rank ends
// every rank with one error line and leaves no file. Halo rows come from the
// file, not from the neighbours. The files must be visible to every rank at
// the same path (one node, or a shared file system; across nodes the rows are
// written with pwrite, never through mapped pages two ranks could share).
// Other formats (PNG, BMP) keep distributed_run.h's path through rank 0.
#pragma once

#include <string>
#include <vector>

#include "filters.h"
#include "registry.h"
#include "row_files.h"
#include "streamed_run.h"

namespace filterlab::mpi {

// One rank's phases, in seconds: its whole share, reading and writing (the
// threads' busy time), the device's upload, kernel and download summed over
// its bands and the device's first-to-last span.
struct RankPhases {
    double wall = 0, read = 0, upload = 0, kernel = 0, download = 0, device_span = 0, write = 0;
    double setup = 0;  // its worker made (contexts, staging, device memory), before the first band
    int bands = 0;  // its bands of rows (0: an idle rank)
    double peak_rss_mib = 0;  // the rank's peak resident memory
};

// A streamed run's times as one rank's phases.
RankPhases phases_of(const stream::StreamTimes &times);

struct FileBandShapes {
    int width = 0, height = 0, channels = 0;  // the input's
    int out_width = 0, out_height = 0;
};

// Collective under mpirun. True (on every rank, rank 0's answer) when `input` starts as a
// binary PGM/PPM and `output` names a .pgm, .ppm or .pnm that holds as many
// channels; false also when `input` cannot be read (the other path says why).
bool can_run_in_file_bands(const std::string &input, const std::string &output);

// Collective: filters the file `input` into the file `output`, each rank its
// share of the rows, streamed in bands of `band_rows` output rows (0: about
// 32 MiB of input a band). A failure on any rank throws AgreedError on all,
// and no output file is left. `ranks` holds every rank's phases on rank 0.
FileBandShapes run_file_in_bands(const Variant &variant, const std::string &input, const std::string &output,
                                 const ParamValues &params, int band_rows, stream::FileWrites writes,
                                 std::vector<RankPhases> &ranks);

}  // namespace filterlab::mpi
