// The reading side of PNG that the whole-image decoder (image_png.cpp) and
// the row-by-row one (png_row_decoder.h) share, so both take the same files
// and give the same bytes: the walk over the chunks before libpng sees them
// (no chunk may claim more bytes than remain; the header's size must be
// reachable by inflating the image data), libpng's limits, and the
// conversions to 8-bit gray or RGB. Internal to the codecs.
#pragma once

#include <png.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace filterlab::codecs::png {

struct Header {
    uint32_t width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    uint64_t image_data_bytes = 0;  // the IDAT chunks' total length
};

// Reads `bytes` bytes at `offset` of a file into `to`; false when it cannot.
using ReadAt = std::function<bool(uint64_t offset, uint8_t *to, std::size_t bytes)>;

// Walks the chunk list of a file of `size` bytes up to IEND (or its end):
// every chunk must fit in what remains. Reads IHDR and sums the IDAT lengths.
Header scan_chunks(const std::string &name, uint64_t size, const ReadAt &read_at);
// Refuses a header whose image could not fit the limits (sides up to
// `max_side`), or could not be inflated from the file's image data.
void check_header(const std::string &name, const Header &header, long long max_side);

// libpng's read state and the source it reads (memory or a stream):
// everything libpng's longjmp may reach lives here, outside the frame that
// calls setjmp; the destructor frees libpng's state on every path.
struct ReadState {
    const uint8_t *memory = nullptr;  // the whole file, or
    std::size_t memory_size = 0, offset = 0;
    std::FILE *file = nullptr;  // a stream at the file's start
    char message[256] = "";
    std::vector<std::string> notices;
    png_structp png = nullptr;
    png_infop info = nullptr;
    int width = 0, height = 0, channels = 0, passes = 1;

    ReadState() = default;
    ReadState(const ReadState &) = delete;
    ReadState &operator=(const ReadState &) = delete;
    ~ReadState();
};

// libpng's structures for `state`, its errors and warnings into it; throws Error.
void create(ReadState &state, const std::string &name);
// Reads the header and asks for 8-bit gray or RGB (each conversion noted),
// with libpng's limits set (sides up to `max_side`, ancillary chunks capped,
// unused ones dropped unread); a layout that is not 8-bit gray or RGB is a
// libpng error. Call only under the caller's setjmp(png_jmpbuf(state.png)),
// with no object that has a destructor in between.
void read_header(ReadState &state, long long max_side);

}  // namespace filterlab::codecs::png
