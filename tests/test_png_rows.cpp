// A PNG decoded row by row (png_row_decoder.h, for streaming) gives the bytes
// the whole-image decoder gives, in every layout libpng writes, read in runs
// of any length; an interlaced PNG is refused (and read whole); a file cut or
// corrupted midway fails with an error at the row it reaches, and keeps
// failing.
#include <doctest/doctest.h>

#include <png.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "error.h"
#include "image_io.h"
#include "image_io_test_helpers.h"
#include "png_row_decoder.h"
#include "test_paths.h"

using namespace filterlab;
namespace fs = std::filesystem;
using namespace image_io_test;

namespace {

// Every row of `path`, `run` rows a call, against read_image's image.
void check_rows_match(const fs::path &path, int run) {
    CAPTURE(path.filename().string());
    CAPTURE(run);
    std::vector<std::string> whole_notices;
    const Image whole = read_image(path.string(), &whole_notices);
    REQUIRE(codecs::is_sequential_png(path.string()));
    codecs::PngRowDecoder rows(path.string(), kMaxSide);
    REQUIRE(rows.width() == whole.width());
    REQUIRE(rows.height() == whole.height());
    REQUIRE(rows.channels() == whole.channels());
    CHECK(rows.notices().size() == whole_notices.size());
    std::vector<uint8_t> got(static_cast<std::size_t>(whole.width()) * whole.channels() * whole.height());
    for (int y = 0; y < whole.height(); y += run) {
        const int count = std::min(run, whole.height() - y);
        rows.read_rows(count, got.data() + static_cast<std::size_t>(y) * whole.width() * whole.channels());
    }
    CHECK(got == to_interleaved(whole));
    CHECK_NOTHROW(rows.read_rows(0, got.data()));           // nothing more, the end read once
    CHECK_THROWS_AS(rows.read_rows(1, got.data()), Error);  // past the last row
}

std::vector<uint8_t> noise_bytes(std::size_t n, uint32_t seed) {
    std::vector<uint8_t> bytes(n);
    for (auto &b : bytes) b = static_cast<uint8_t>((seed = seed * 1664525u + 1013904223u) >> 24);
    return bytes;
}

}  // namespace

TEST_CASE("PNG rows one run at a time equal the whole-image decoder's, in every layout") {
    const int w = 37, h = 23;
    struct Layout {
        const char *name;
        int color, depth, bytes_per_row;
        bool palette;
    };
    const Layout layouts[] = {{"gray8", PNG_COLOR_TYPE_GRAY, 8, w, false},
                              {"rgb8", PNG_COLOR_TYPE_RGB, 8, 3 * w, false},
                              {"gray16", PNG_COLOR_TYPE_GRAY, 16, 2 * w, false},
                              {"gray_alpha", PNG_COLOR_TYPE_GRAY_ALPHA, 8, 2 * w, false},
                              {"rgba", PNG_COLOR_TYPE_RGB_ALPHA, 8, 4 * w, false},
                              {"gray2", PNG_COLOR_TYPE_GRAY, 2, (2 * w + 7) / 8, false},
                              {"palette", PNG_COLOR_TYPE_PALETTE, 1, (w + 7) / 8, true}};
    for (const Layout &l : layouts) {
        const fs::path path = temp_dir() / (std::string(l.name) + "_rows.png");
        write_png_raw(path, w, h, l.color, l.depth, noise_bytes(static_cast<std::size_t>(l.bytes_per_row) * h, w * h),
                      l.palette);
        for (int run : {1, 4, h}) check_rows_match(path, run);
    }
    check_rows_match(fs::path(test_images_dir()) / "rgb_small.png", 17);
}

TEST_CASE("an interlaced PNG is not read row by row; it still reads whole") {
    const fs::path path = temp_dir() / "adam7.png";
    write_png_raw(path, 9, 11, PNG_COLOR_TYPE_GRAY, 8, noise_bytes(99, 3), false, PNG_INTERLACE_ADAM7);
    CHECK_FALSE(codecs::is_sequential_png(path.string()));
    CHECK_THROWS_WITH_AS(codecs::PngRowDecoder(path.string(), kMaxSide), doctest::Contains("interlaced"), Error);
    CHECK(read_image(path.string()).height() == 11);
    CHECK_FALSE(codecs::is_sequential_png((temp_dir() / "no_such.png").string()));
    spit(temp_dir() / "not_png.png", "P5 1 1 255 A");
    CHECK_FALSE(codecs::is_sequential_png((temp_dir() / "not_png.png").string()));
}

TEST_CASE("a PNG cut or corrupted midway fails at the row it reaches, and keeps failing") {
    const int w = 64, h = 64;
    const fs::path path = temp_dir() / "whole_rows.png";
    write_png_raw(path, w, h, PNG_COLOR_TYPE_GRAY, 8, noise_bytes(w * h, 9));
    const std::vector<uint8_t> good = slurp(path);
    // Cut inside the image data: the chunk walk refuses it before any row.
    const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size() / 2));
    CHECK_THROWS_WITH_AS(codecs::PngRowDecoder("cut.png", cut, kMaxSide), doctest::Contains("truncated"), Error);
    // The image data's bytes changed (lengths intact): its CRC fails at a row.
    std::vector<uint8_t> corrupt = good;
    for (std::size_t i = good.size() / 2; i < good.size() / 2 + 16; i++) corrupt[i] ^= 0x5a;
    codecs::PngRowDecoder rows("corrupt.png", corrupt, kMaxSide);
    std::vector<uint8_t> row(w * h);
    CHECK_THROWS_WITH_AS(rows.read_rows(h, row.data()), doctest::Contains("corrupt PNG"), Error);
    CHECK_THROWS_WITH_AS(rows.read_rows(1, row.data()), doctest::Contains("corrupt PNG"), Error);
    // The whole-image decoder refuses both as well.
    spit(temp_dir() / "corrupt_rows.png", corrupt);
    CHECK_THROWS_AS(read_image((temp_dir() / "corrupt_rows.png").string()), Error);
}
