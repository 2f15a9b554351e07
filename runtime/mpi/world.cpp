#include "world.h"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <vector>

namespace filterlab::mpi {
namespace {

World the_world;
bool mpi_open = false;

// Open MPI, PMIx and PMI launchers set these in every rank they start.
bool launched_by_mpirun() {
    for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
        if (std::getenv(name)) return true;
    return false;
}

int local_rank() {
    for (const char *name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
        if (const char *value = std::getenv(name)) return std::atoi(value);
    return 0;
}

// The NVIDIA GPUs of this node, as the driver lists them (no CUDA call: the
// choice must be made before CUDA starts).
int node_gpus() {
    std::error_code ec;
    int count = 0;
    for (auto &entry : std::filesystem::directory_iterator("/proc/driver/nvidia/gpus", ec)) count += entry.is_directory();
    return count;
}

}  // namespace

const World &world() { return the_world; }

Session::Session(int &argc, char **&argv) {
    if (!launched_by_mpirun()) return;
    // Before MPI_Init: a CUDA-aware MPI may start CUDA inside it. The
    // launcher has put the rank on the node in the environment already.
    const int gpus = node_gpus();
    if (gpus > 0 && !std::getenv("CUDA_VISIBLE_DEVICES")) {
        setenv("CUDA_VISIBLE_DEVICES", std::to_string(local_rank() % gpus).c_str(), 1);
    }
    if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return;  // Open MPI prints why
    mpi_open = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &the_world.rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &the_world.size_);
}

Session::~Session() {
    if (mpi_open) MPI_Finalize();
}

void World::collective(const std::function<void()> &work) const {
    if (!distributed()) {  // one rank: its errors are as they were, nothing to agree on
        work();
        return;
    }
    std::string message;
    bool failed = false;
    try {
        work();
    } catch (const std::bad_alloc &) {
        failed = true;
        message = "out of memory";
    } catch (const std::exception &e) {
        failed = true;
        message = e.what();
    }
    const int mine = failed ? rank_ : size_;
    int first = size_;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size_) return;
    broadcast(message, first);
    throw AgreedError(first == 0 ? message : fmt::format("rank {}: {}", first, message));
}

void World::broadcast(int *values, int count, int root) const {
    if (distributed()) MPI_Bcast(values, count, MPI_INT, root, MPI_COMM_WORLD);
}

void World::broadcast(std::string &text, int root) const {
    int length = static_cast<int>(text.size());
    broadcast(&length, 1, root);
    text.resize(static_cast<std::size_t>(length));
    if (distributed()) MPI_Bcast(text.data(), length, MPI_CHAR, root, MPI_COMM_WORLD);
}

void World::barrier() const {
    if (distributed()) MPI_Barrier(MPI_COMM_WORLD);
}

void World::keep_slowest(std::vector<double *> values) const {
    if (!distributed()) return;
    std::vector<double> mine, slowest(values.size());
    for (const double *v : values) mine.push_back(*v);
    MPI_Reduce(mine.data(), slowest.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!root()) return;
    for (std::size_t i = 0; i < values.size(); i++) *values[i] = slowest[i];
}

std::vector<std::vector<double>> World::gather(const std::vector<double> &mine) const {
    if (!distributed()) return {mine};
    const int n = static_cast<int>(mine.size());
    std::vector<double> all(root() ? static_cast<std::size_t>(n) * size_ : 0);
    MPI_Gather(mine.data(), n, MPI_DOUBLE, all.data(), n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    std::vector<std::vector<double>> by_rank;
    if (!root()) return by_rank;
    for (int r = 0; r < size_; r++) by_rank.emplace_back(all.begin() + r * n, all.begin() + (r + 1) * n);
    return by_rank;
}

double World::seconds() const {
    if (mpi_open) return MPI_Wtime();
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int World::fail(const std::exception &error, bool agreed) const {
    if (!distributed()) {
        fmt::print(stderr, "filterlab: error: {}\n", error.what());
        return 1;
    }
    if (agreed) {
        if (root()) fmt::print(stderr, "filterlab: error: {}\n", error.what());
        return 1;
    }
    fmt::print(stderr, "filterlab: error: rank {}: {}\n", rank_, error.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
}

}  // namespace filterlab::mpi
