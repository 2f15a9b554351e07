// The ranks of an MPI launch (`mpirun -n N filterlab ...`, Open MPI), or a
// world of one when the process was started without mpirun: then no MPI call
// is made at all. Rank 0 does the file input and output and prints; a
// failure on any rank ends every rank with one `filterlab: error:` line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "error.h"

namespace filterlab::mpi {

// An error every rank has agreed on (through collective()): each rank throws
// it, rank 0 alone prints it.
class AgreedError : public Error {
public:
    using Error::Error;
};

class World {
public:
    int rank() const { return rank_; }
    int size() const { return size_; }
    bool root() const { return rank_ == 0; }
    bool distributed() const { return size_ > 1; }

    // Runs `work` on every rank, then agrees: when it threw on any rank,
    // every rank throws AgreedError with the message of the lowest such rank
    // ("rank R: ..." when that is not rank 0). With one rank it only runs
    // `work`, whose exceptions pass unchanged.
    void collective(const std::function<void()> &work) const;
    void barrier() const;
    // Rank `root`'s values, or text, to every rank (nothing without MPI).
    void broadcast(int *values, int count, int root = 0) const;
    void broadcast(std::string &text, int root = 0) const;
    // Every rank's values (all the same length) on rank 0, by rank; empty elsewhere.
    std::vector<std::vector<double>> gather(const std::vector<double> &mine) const;
    double seconds() const;  // MPI_Wtime, or a steady clock without MPI
    // Collective: each of `values` replaced by its largest over the ranks
    // (on rank 0; the others keep theirs): a phase's time is the slowest rank's.
    void keep_slowest(std::vector<double *> values) const;

    // How the process ends on an error: one line, from rank 0 for an agreed
    // error; any other error is one rank's own, which prints it with its
    // rank and ends all ranks (MPI_Abort). Returns the exit status.
    int fail(const std::exception &error, bool agreed) const;

private:
    friend class Session;
    int rank_ = 0, size_ = 1;
};

const World &world();

// The seconds of successive phases: lap(phase) sets `phase` to the time since
// the last lap (or since the clock was made).
class PhaseClock {
public:
    PhaseClock() : last_(world().seconds()) {}
    void lap(double &phase) {
        const double now = world().seconds();
        phase = now - last_;
        last_ = now;
    }

private:
    double last_;
};

// Opens MPI for the lifetime of main() when mpirun started the process
// (MPI_Init before anything else, so that each rank can first be given its
// GPU: CUDA_VISIBLE_DEVICES = its rank on the node, modulo the GPUs there),
// and closes it (MPI_Finalize) at the end.
class Session {
public:
    Session(int &argc, char **&argv);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;
};

}  // namespace filterlab::mpi
