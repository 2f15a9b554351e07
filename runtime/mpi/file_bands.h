// `mpirun -n N filterlab run` from a binary PGM/PPM to a PGM/PPM, with no
// rank 0 in the data path: the rows of such a file sit at computable
// offsets, so each rank reads its own band and its halo rows from the file
// (collective MPI-IO, MPI_File_read_at_all), filters it, and writes its own
// rows (MPI_File_write_at_all) into the temporary that rank 0 made beside the
// output with the header in it; rank 0 renames the temporary onto the output
// only once every rank has succeeded. So the all-or-nothing rule of one
// process holds: a failure on any rank ends every rank with one error line
// and leaves no file. Halo rows come from the file, not from the neighbours.
// Other formats (PNG, BMP) keep distributed_run.h's path through rank 0.
#pragma once

#include <string>

#include "filters.h"
#include "registry.h"

namespace filterlab::mpi {

// Seconds of each phase, the slowest rank's.
struct FileBandTimes {
    double read = 0, filter = 0, write = 0;
    int bands = 0;  // ranks that had rows
};

struct FileBandShapes {
    int width = 0, height = 0, channels = 0;  // the input's
    int out_width = 0, out_height = 0;
};

// Collective. True (on every rank, rank 0's answer) when `input` starts as a
// binary PGM/PPM and `output` names a .pgm, .ppm or .pnm that holds as many
// channels; false also when `input` cannot be read (the other path says why).
bool can_run_in_file_bands(const std::string &input, const std::string &output);

// Collective: filters the file `input` into the file `output` in bands of
// rows over the ranks. A failure on any rank throws AgreedError on all, and
// no output file is left.
FileBandShapes run_file_in_bands(const Variant &variant, const std::string &input, const std::string &output,
                                 const ParamValues &params, FileBandTimes &times);

}  // namespace filterlab::mpi
