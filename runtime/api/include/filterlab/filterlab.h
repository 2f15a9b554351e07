// FilterLab's public API (C++17): every filter of FILTERS.md, run by any of
// its variants — a Halide schedule, a handwritten CUDA kernel or one of the
// OpenMP and Pthreads baselines — on the caller's image as it is. No Halide
// or CUDA header is needed to use it.
//
//   filterlab::ImageRef in{pixels, width, height, 3, width * 3, filterlab::Layout::interleaved};
//   filterlab::ImageRef out{result, width, height, 3, width * 3, filterlab::Layout::interleaved};
//   if (filterlab::Outcome r = filterlab::box(in, out, 2); !r) std::cerr << r.message << "\n";
//
// Images are 8-bit, 1 or 3 channels as planes or interleaved samples, any row
// pitch of at least a row's bytes, at most 65536 on a side, in host memory or
// CUDA device memory of the calling thread's current device (device 0 unless
// it called cudaSetDevice; other devices not yet run on a GPU); allocate row_pitch x height bytes (per
// plane): the fastest kernels read whole 16-byte words of a row's padding.
// Input and output may overlap (they are then copied first). A call never
// aborts the process: every failure comes back as an Outcome with a message.
//
// Memory and synchronisation. When the variant's backend matches the memory
// (a CPU variant on host images, a CUDA variant on device images) and the
// images are planar — for CUDA with rows and planes on 16-byte boundaries —
// the variant works on the images in place; on device memory it is then
// asynchronous on `Options::cuda_stream` (0: the legacy default stream), like
// a kernel launch. Otherwise the images are copied to a layout the variant
// takes and back, and the call returns when the output is written (a CUDA
// variant then runs on the legacy default stream and waits for the device).
//
// Threads. Every function here may be called at the same time as any other,
// from any number of threads, on any CUDA streams: no call keeps state
// between calls (scratch memory is the call's own, on its stream; Halide's
// error text is the call's own). A CUDA error that leaves the process's CUDA
// context unusable (an illegal address, a kernel fault) is reported with
// "the process's GPU state is lost": every later CUDA call of the process
// fails, and only a new process can use the GPU again (CPU variants still
// work). Every other failure leaves the library ready for the next call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace filterlab {

enum class Layout { planar, interleaved };
enum class Memory { host, cuda_device };

struct ImageRef {
    std::uint8_t *data = nullptr;
    int width = 0, height = 0, channels = 1;
    // Bytes from one row to the next; 0: packed (width, or width x channels
    // when interleaved).
    std::ptrdiff_t row_pitch = 0;
    Layout layout = Layout::planar;
    Memory memory = Memory::host;
    // Planar only: bytes from one channel plane to the next; 0: row_pitch x height.
    std::ptrdiff_t plane_pitch = 0;
};

struct Options {
    // A variant of `filterlab list`, e.g. "cpu_tiled" or "hw_packed"; empty:
    // the default, the fastest measured on the H100 for the images' memory
    // (default_variant()).
    std::string variant;
    // A cudaStream_t for device images; nullptr: the legacy default stream.
    void *cuda_stream = nullptr;
    // run_file with a CUDA variant: the visible GPUs its bands are spread
    // over, band b on GPU b mod gpus (0: every visible one).
    int gpus = 1;
};

struct Outcome {
    bool ok = true;
    std::string message;  // why not, when not ok
    std::string variant;  // the variant that ran (or was to run)
    explicit operator bool() const { return ok; }
};

// One call per filter, with the contract's parameters (FILTERS.md).
Outcome box(const ImageRef &in, const ImageRef &out, int radius = 1, const Options &options = {});
Outcome median(const ImageRef &in, const ImageRef &out, int size = 3, const Options &options = {});
Outcome gaussian(const ImageRef &in, const ImageRef &out, double sigma = 1.0, const Options &options = {});
// The output is floor(width / 2) x floor(height / 2).
Outcome maxpool(const ImageRef &in, const ImageRef &out, const Options &options = {});
Outcome gaussian_maxpool(const ImageRef &in, const ImageRef &out, double sigma = 1.0, const Options &options = {});
Outcome nlmeans(const ImageRef &in, const ImageRef &out, int patch = 3, int search = 10, double h = 10.0,
                const Options &options = {});

// Any filter by name, its parameters by name (those left out take their defaults).
Outcome run(const std::string &filter, const ImageRef &in, const ImageRef &out,
            const std::map<std::string, double> &params = {}, const Options &options = {});

// A binary PGM/PPM file, or a non-interlaced PNG (read row by row, converted
// to 8-bit gray or RGB as `filterlab run` converts it), into a PGM/PPM file
// (`.pgm`, `.ppm` or `.pnm`) or a PNG (written row by row), streamed in bands
// of rows as `filterlab run` streams it: reading, the
// variant's work (for a CUDA variant: its copies and kernels on streams of
// its own) and writing overlap, and host memory stays a few bands, not the
// image, so a file larger than memory can be filtered (sides up to 2^24;
// rows wider than 65536 are cut into column tiles). The output appears
// complete or not at all. Options::variant names a CPU or CUDA variant; empty:
// the default for device images where there is a GPU, else for host images.
// Options::cuda_stream is not used (the bands have their own streams);
// Options::gpus spreads a CUDA variant's bands over several GPUs.
Outcome run_file(const std::string &filter, const std::string &input_path, const std::string &output_path,
                 const std::map<std::string, double> &params = {}, const Options &options = {});

struct VariantInfo {
    std::string filter, name;
    bool cuda = false;       // runs on the GPU
    bool handwritten = false;  // by hand (a CUDA kernel, or an OpenMP / Pthreads baseline); else Halide or the reference
    std::string supports;    // the parameter values it takes beyond the contract's, e.g. "size=3"
    std::string backend;     // where it runs: "cpu", "cuda" or "opencl" (OpenCL images are always copied)
};
// The variants this library holds (FilterLab's own: no peers).
std::vector<VariantInfo> variants();
// The variant a call without Options::variant runs for images in `memory`;
// "" for an unknown filter.
std::string default_variant(const std::string &filter, Memory memory);
// "0.5.0 (commit abc1234)".
std::string version();

}  // namespace filterlab
