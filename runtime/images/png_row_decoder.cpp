#include "png_row_decoder.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "error.h"
#include "png_reading.h"

namespace filterlab::codecs {
namespace {

// No object with a destructor may live in these frames: libpng's longjmp
// would skip it. False on a libpng error, its message in d.message.
bool header_libpng(png::ReadState &d, long long max_side) {
    if (setjmp(png_jmpbuf(d.png))) return false;
    png::read_header(d, max_side);
    return true;
}
bool rows_libpng(png::ReadState &d, int count, uint8_t *to, std::size_t row_bytes, bool last) {
    if (setjmp(png_jmpbuf(d.png))) return false;
    for (int i = 0; i < count; i++) png_read_row(d.png, to + static_cast<std::size_t>(i) * row_bytes, nullptr);
    if (last) png_read_end(d.png, nullptr);
    return true;
}

constexpr uint8_t kSignature[8] = {137, 'P', 'N', 'G', 13, 10, 26, 10};

}  // namespace

struct PngRowDecoder::State : png::ReadState {
    std::FILE *owned = nullptr;
    bool failed = false;
    ~State() {
        if (owned) std::fclose(owned);
    }
};

namespace {

// The first `n` bytes of a regular file; false when there are fewer, or no such file.
bool file_starts(const std::string &path, uint8_t *head, std::size_t n) {
    std::FILE *file = std::fopen(path.c_str(), "rb");
    if (!file) return false;
    struct stat info {};
    const bool regular = fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode);
    const bool read = regular && std::fread(head, 1, n, file) == n;
    std::fclose(file);
    return read;
}

}  // namespace

bool has_png_signature(const std::string &path) {
    uint8_t head[8];
    return file_starts(path, head, sizeof head) && std::memcmp(head, kSignature, 8) == 0;
}

bool is_sequential_png(const std::string &path) {
    uint8_t head[29];
    return file_starts(path, head, sizeof head) && std::memcmp(head, kSignature, 8) == 0 &&
           std::memcmp(head + 12, "IHDR", 4) == 0 && head[28] == 0;
}

PngRowDecoder::PngRowDecoder(const std::string &path, long long max_side) : name_(path), state_(std::make_unique<State>()) {
    State &d = *state_;
    d.owned = d.file = std::fopen(path.c_str(), "rb");
    if (!d.file) throw Error(path + ": cannot open: " + std::strerror(errno));
    struct stat info {};
    if (fstat(fileno(d.file), &info) != 0 || !S_ISREG(info.st_mode)) throw Error(path + ": not a regular file");
    const int fd = fileno(d.file);
    const png::Header header = png::scan_chunks(path, static_cast<uint64_t>(info.st_size), [fd](uint64_t at, uint8_t *to, std::size_t n) {
        return pread(fd, to, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n);
    });
    png::check_header(path, header, max_side);
    if (header.interlace != 0) throw Error(path + ": an interlaced PNG cannot be read row by row");
    start(max_side);
}

PngRowDecoder::PngRowDecoder(const std::string &name, const std::vector<uint8_t> &bytes, long long max_side)
    : name_(name), state_(std::make_unique<State>()) {
    const png::Header header = png::scan_chunks(name, bytes.size(), [&](uint64_t at, uint8_t *to, std::size_t n) {
        if (at + n > bytes.size()) return false;
        std::memcpy(to, bytes.data() + at, n);
        return true;
    });
    png::check_header(name, header, max_side);
    if (header.interlace != 0) throw Error(name + ": an interlaced PNG cannot be read row by row");
    state_->memory = bytes.data();
    state_->memory_size = bytes.size();
    start(max_side);
}

PngRowDecoder::~PngRowDecoder() = default;

void PngRowDecoder::start(long long max_side) {
    State &d = *state_;
    png::create(d, name_);
    if (!header_libpng(d, max_side)) throw Error(name_ + ": corrupt PNG: " + d.message);
    // libpng may pass a header check_header refused (an interlace byte it
    // does not know): only one pass is read row by row.
    if (d.passes != 1) throw Error(name_ + ": an interlaced PNG cannot be read row by row");
}

void PngRowDecoder::skip_to(int row) {
    std::vector<uint8_t> dropped;
    while (next_ < row) {
        dropped.resize(static_cast<std::size_t>(width()) * channels());
        read_rows(1, dropped.data());
    }
}

int PngRowDecoder::width() const { return state_->width; }
int PngRowDecoder::height() const { return state_->height; }
int PngRowDecoder::channels() const { return state_->channels; }
const std::vector<std::string> &PngRowDecoder::notices() const { return state_->notices; }

void PngRowDecoder::read_rows(int count, uint8_t *to) {
    State &d = *state_;
    if (d.failed) throw Error(name_ + ": corrupt PNG: " + d.message);
    if (count < 0 || count > d.height - next_) throw Error(name_ + ": rows asked past the PNG's last");
    if (count == 0) return;  // the file's end is read once, after the last row
    const std::size_t row_bytes = static_cast<std::size_t>(d.width) * d.channels;
    if (!rows_libpng(d, count, to, row_bytes, next_ + count == d.height)) {
        d.failed = true;
        throw Error(name_ + ": corrupt PNG: " + d.message);
    }
    next_ += count;
}

}  // namespace filterlab::codecs
