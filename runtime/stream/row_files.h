// Rows of an image file read and written in place, for streaming: a binary
// PGM/PPM keeps its rows at computable offsets, so any band of them is one
// pread or pwrite, from any thread, and an image larger than memory (or than
// kMaxSide) is never held whole. Rows are interleaved, as the file stores them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace filterlab {
class TempFile;
}

namespace filterlab::stream {

// Sides a streamed file may have: far beyond what one variant takes, since
// only bands and tiles reach a variant.
constexpr long long kMaxStreamedSide = 1LL << 24;

struct FileShape {
    int width = 0, height = 0, channels = 0;
    std::size_t row_bytes() const { return static_cast<std::size_t>(width) * channels; }
};

// Where streamed rows come from and go to: a file, or memory (the public
// API, the tests). Rows are interleaved; calls may come from several threads
// at once, each for rows of its own.
class RowSource {
public:
    virtual ~RowSource() = default;
    virtual FileShape shape() const = 0;
    virtual void read_rows(int first, int count, uint8_t *to) const = 0;  // count x row_bytes; throws Error
    // True when rows must be asked in order, from one thread: each call's
    // first row at or after the last call's (bands overlap by their halos).
    virtual bool sequential() const { return false; }
    // Called once the last band is read: a file read in order checks the rest
    // of itself (rows no band reached, as pooling's odd last row, and its end).
    virtual void finish() const {}
    // The most memory it held at once for rows (a PNG reader's kept band).
    virtual std::size_t held_bytes() const { return 0; }
};
class RowSink {
public:
    virtual ~RowSink() = default;
    virtual void write_rows(int first, int count, const uint8_t *from) const = 0;  // throws Error
    // True when rows must come in order, from one thread (a PNG).
    virtual bool sequential() const { return false; }
};

// True when `path` is a regular file that starts as a binary PGM/PPM (P5/P6).
bool is_binary_pnm(const std::string &path);
// True when `output` names a .pgm, .ppm or .pnm that can hold `channels`.
bool is_pnm_output(const std::string &output, int channels);

// A binary PGM/PPM opened for reading rows. Its header is checked against
// the file's length (every sample byte present) before any row is read.
class PnmRowReader : public RowSource {
public:
    explicit PnmRowReader(const std::string &path);  // throws Error
    ~PnmRowReader() override;
    PnmRowReader(const PnmRowReader &) = delete;
    PnmRowReader &operator=(const PnmRowReader &) = delete;
    FileShape shape() const override { return shape_; }
    void read_rows(int first, int count, uint8_t *to) const override;

private:
    std::string path_;
    int fd_ = -1;
    FileShape shape_;
    std::size_t raster_start_ = 0;
};

// How a writer puts rows into its file. `pwrite`: one call per run of rows;
// several threads' calls into one ext4 file do not scale with the threads. `mapped`: each run's blocks allocated
// first (posix_fallocate: a full disk is an error here, never a fault later),
// then copied through a window mapped for it alone and unmapped at once (so
// the process's memory stays the bands'): page faults of several threads
// proceed in parallel. A run whose blocks cannot be allocated ahead, or
// mapped, falls back to pwrite, which then reports the error.
enum class FileWrites { mapped, pwrite };

// A PGM/PPM written in place: the header, then rows at their offsets, in any
// order, from any thread. Either it owns a temporary beside `output`
// (renamed onto it by commit(); removed on any other path), or it writes
// into a temporary another process made (MPI ranks), which it never removes.
class PnmRowWriter : public RowSink {
public:
    PnmRowWriter(const std::string &output, const FileShape &shape);  // owns a new temporary; throws Error
    PnmRowWriter(const std::string &output, const std::string &temporary, const FileShape &shape);  // shares one
    ~PnmRowWriter() override;
    PnmRowWriter(const PnmRowWriter &) = delete;
    PnmRowWriter &operator=(const PnmRowWriter &) = delete;
    const std::string &temporary_path() const { return temporary_; }
    void use(FileWrites writes) { writes_ = writes; }
    static std::string header(const FileShape &shape);
    void write_rows(int first, int count, const uint8_t *from) const override;
    void close();   // flushes the descriptor's errors; throws Error
    void commit();  // close(), then the rename (owned temporaries only); throws Error

private:
    std::string output_, temporary_;
    std::unique_ptr<TempFile> owned_;
    int fd_ = -1;
    FileShape shape_;
    std::size_t raster_start_ = 0;
    FileWrites writes_ = FileWrites::mapped;
};

}  // namespace filterlab::stream
