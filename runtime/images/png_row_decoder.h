// A PNG decoded row by row, in order, for streaming (runtime/stream): memory
// is a row's and libpng's, never the image's, so sides may reach `max_side`
// (2^24 for streamed runs). The file is checked as the whole-image decoder
// checks it (png_reading.h: every chunk inside the file, the header's size
// reachable from its image data) before a row is decoded, and gives the same
// bytes. Interlaced PNGs hold no row until the last pass: they are refused
// here and read whole (is_sequential_png says which is which).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "image.h"

namespace filterlab::codecs {

// True when `path` is a regular file that starts with PNG's signature.
bool has_png_signature(const std::string &path);
// True when `path` is a regular file whose PNG header (its first chunk, as
// libpng reads it) says its rows are stored one after the other (not interlaced).
bool is_sequential_png(const std::string &path);

class PngRowDecoder {
public:
    // A file; throws Error (cannot open, corrupt, interlaced, too large).
    PngRowDecoder(const std::string &path, long long max_side);
    // The file's bytes in memory (the fuzzer's); `name` names it in errors.
    PngRowDecoder(const std::string &name, const std::vector<uint8_t> &bytes, long long max_side);
    ~PngRowDecoder();
    PngRowDecoder(const PngRowDecoder &) = delete;
    PngRowDecoder &operator=(const PngRowDecoder &) = delete;

    int width() const;
    int height() const;
    int channels() const;  // 1 or 3, after the conversions (image_io.h)
    int next_row() const { return next_; }
    // The next `count` rows, interleaved (width x channels bytes each); after
    // the last row the file's end is read and checked. Throws Error.
    void read_rows(int count, uint8_t *to);
    // Decodes and drops the rows before `row` not yet read (none when
    // next_row() is already there). Throws Error.
    void skip_to(int row);
    const std::vector<std::string> &notices() const;  // the conversions made, libpng's warnings

private:
    void start(long long max_side);
    struct State;
    std::string name_;
    std::unique_ptr<State> state_;
    int next_ = 0;
};

}  // namespace filterlab::codecs
