#include "row_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "error.h"
#include "image_codecs.h"
#include "temp_files.h"

namespace filterlab::stream {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderBytes = 4096;  // more than any PGM/PPM header needs, comments included
constexpr const char *kTruncated = "file is truncated";
constexpr const char *kNoProgress = "cannot write (no progress)";

std::string system_error(const std::string &path, const char *what) {
    return path + ": " + what + " (" + std::strerror(errno) + ")";
}

// pread/pwrite move at most about 2 GiB a call: loop until done. A call
// that moves nothing ends it with `at_end` (a read past the file's end).
template <typename Call>
void whole(const std::string &path, const char *what, const char *at_end, std::size_t bytes, Call call) {
    for (std::size_t done = 0; done < bytes;) {
        const ssize_t n = call(done, std::min<std::size_t>(bytes - done, 1u << 30));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(system_error(path, what));
        if (n == 0) throw Error(path + ": " + at_end);
        done += static_cast<std::size_t>(n);
    }
}

// `bytes` at `at` through a window of the file mapped for them alone; false
// when its blocks cannot be allocated ahead or it cannot be mapped.
bool write_mapped(int fd, std::size_t at, std::size_t bytes, const uint8_t *from) {
    static const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    if (bytes == 0) return true;
    if (::posix_fallocate(fd, static_cast<off_t>(at), static_cast<off_t>(bytes)) != 0) return false;
    const std::size_t start = at / page * page, length = at + bytes - start;
    void *window = ::mmap(nullptr, length, PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(start));
    if (window == MAP_FAILED) return false;
    std::memcpy(static_cast<uint8_t *>(window) + (at - start), from, bytes);
    ::munmap(window, length);
    return true;
}

}  // namespace

bool is_binary_pnm(const std::string &path) {
    // Only a regular file: a pipe's first bytes, once read, would be lost to
    // the whole-image path.
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) return false;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    char magic[2] = {};
    const bool pnm = ::read(fd, magic, 2) == 2 && magic[0] == 'P' && (magic[1] == '5' || magic[1] == '6');
    ::close(fd);
    return pnm;
}

bool is_pnm_output(const std::string &output, int channels) {
    const std::string ext = fs::path(output).extension().string();
    return ext == ".pnm" || (ext == ".pgm" && channels == 1) || (ext == ".ppm" && channels == 3);
}

PnmRowReader::PnmRowReader(const std::string &path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(system_error(path, "cannot open"));
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
        ::close(fd_);
        throw Error(system_error(path, "cannot read"));
    }
    const auto size = static_cast<std::size_t>(info.st_size);
    std::vector<uint8_t> head(std::min(size, kHeaderBytes));
    try {
        whole(path, "cannot read", kTruncated, head.size(), [&](std::size_t at, std::size_t n) {
            return ::pread(fd_, head.data() + at, n, static_cast<off_t>(at));
        });
        const codecs::PnmLayout layout = codecs::pnm_layout(path, head, size, kMaxStreamedSide);
        shape_ = {layout.width, layout.height, layout.channels};
        raster_start_ = layout.raster_start;
    } catch (...) {
        ::close(fd_);
        throw;
    }
}

PnmRowReader::~PnmRowReader() {
    if (fd_ >= 0) ::close(fd_);
}

void PnmRowReader::read_rows(int first, int count, uint8_t *to) const {
    const std::size_t row = shape_.row_bytes();
    const off_t at = static_cast<off_t>(raster_start_ + static_cast<std::size_t>(first) * row);
    whole(path_, "cannot read", kTruncated, static_cast<std::size_t>(count) * row, [&](std::size_t done, std::size_t n) {
        return ::pread(fd_, to + done, n, at + static_cast<off_t>(done));
    });
}

std::string PnmRowWriter::header(const FileShape &shape) {
    return codecs::pnm_header(shape.width, shape.height, shape.channels);
}

PnmRowWriter::PnmRowWriter(const std::string &output, const FileShape &shape)
    : output_(output), owned_(std::make_unique<TempFile>(output)), shape_(shape) {
    temporary_ = owned_->path();
    fd_ = owned_->fd();
    const std::string head = header(shape);
    raster_start_ = head.size();
    whole(output_, "cannot write", kNoProgress, head.size(), [&](std::size_t at, std::size_t n) {
        return ::pwrite(fd_, head.data() + at, n, static_cast<off_t>(at));
    });
    // The whole length at once (sparse): rows may then land in any order.
    const off_t length = static_cast<off_t>(raster_start_ + shape.row_bytes() * static_cast<std::size_t>(shape.height));
    if (::ftruncate(fd_, length) != 0) throw Error(system_error(output_, "cannot write"));
}

PnmRowWriter::PnmRowWriter(const std::string &output, const std::string &temporary, const FileShape &shape)
    : output_(output), temporary_(temporary), shape_(shape), raster_start_(header(shape).size()) {
    fd_ = ::open(temporary.c_str(), O_RDWR | O_CLOEXEC);  // read too: a mapping needs it
    if (fd_ < 0) throw Error(system_error(output, "cannot write"));
}

PnmRowWriter::~PnmRowWriter() {
    if (!owned_ && fd_ >= 0) ::close(fd_);  // an owned one is TempFile's until close()
}

void PnmRowWriter::write_rows(int first, int count, const uint8_t *from) const {
    const std::size_t row = shape_.row_bytes();
    const off_t at = static_cast<off_t>(raster_start_ + static_cast<std::size_t>(first) * row);
    const std::size_t bytes = static_cast<std::size_t>(count) * row;
    if (writes_ == FileWrites::mapped && write_mapped(fd_, static_cast<std::size_t>(at), bytes, from)) return;
    whole(output_, "cannot write", kNoProgress, bytes, [&](std::size_t done, std::size_t n) {
        return ::pwrite(fd_, from + done, n, at + static_cast<off_t>(done));
    });
}

void PnmRowWriter::close() {
    // An owned temporary's descriptor is handed over by TempFile, which still
    // removes the file unless it is renamed.
    const int fd = owned_ && fd_ >= 0 ? owned_->release_fd() : fd_;
    fd_ = -1;
    if (fd >= 0 && ::close(fd) != 0) throw Error(system_error(output_, "cannot write"));
}

void PnmRowWriter::commit() {
    close();
    if (owned_) owned_->rename_onto_target();
}

}  // namespace filterlab::stream
