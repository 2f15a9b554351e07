// Image files: round trips in every format, the layouts, BMP's row order, the
// PNG conversions and PNM's comments. Malformed files, failed writes and the
// memory bounds: test_image_io_errors.cpp.
#include <doctest/doctest.h>

#include <png.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "image_io.h"
#include "image_io_test_helpers.h"
#include "noise.h"
#include "test_paths.h"

using namespace filterlab;
namespace fs = std::filesystem;

namespace {

using namespace image_io_test;

// Palette PNGs, without and with transparency (tRNS): expanded to RGB.
void check_palette_conversions(std::vector<std::string> &notices) {
    // Palette: expanded to RGB.
    notices.clear();
    write_png_raw(temp_dir() / "pal.png", 2, 1, PNG_COLOR_TYPE_PALETTE, 8, {1, 0}, true);
    Image pal = read_image((temp_dir() / "pal.png").string(), &notices);
    CHECK(pal.channels() == 3);
    CHECK(pal.at(0, 0, 0) == 200);
    CHECK(pal.at(1, 0, 2) == 30);
    CHECK(notices.at(0).find("palette") != std::string::npos);

    // Palette with transparency (tRNS): expanded to RGB, the transparency dropped.
    notices.clear();
    {
        FILE *f = std::fopen((temp_dir() / "trns.png").c_str(), "wb");
        png_structp w = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
        png_infop info = png_create_info_struct(w);
        png_init_io(w, f);
        png_set_IHDR(w, info, 2, 1, 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT);
        png_color colors[2] = {{10, 20, 30}, {200, 100, 50}};
        png_set_PLTE(w, info, colors, 2);
        png_byte alpha[2] = {0, 255};
        png_set_tRNS(w, info, alpha, 2, nullptr);
        png_write_info(w, info);
        png_byte row[2] = {0, 1};
        png_write_row(w, row);
        png_write_end(w, nullptr);
        png_destroy_write_struct(&w, &info);
        std::fclose(f);
    }
    const Image trns = read_image((temp_dir() / "trns.png").string(), &notices);
    CHECK(trns.channels() == 3);
    CHECK(trns.at(0, 0, 1) == 20);
    CHECK(trns.at(1, 0, 0) == 200);
}

}  // namespace

Image round_trip(const fs::path &p, const Image &image) {
    write_image(p.string(), image);
    return read_image(p.string());
}

TEST_CASE("round trips: PNG, PGM, PPM, BMP, gray and RGB, odd sizes (BMP row padding)") {
    for (auto [w, h] : {std::pair{1, 1}, {3, 2}, {5, 7}, {2, 9}, {64, 33}}) {
        CAPTURE(w);
        CAPTURE(h);
        const Image gray = random_image(w, h, 1, w * 100 + h);
        const Image rgb = random_image(w, h, 3, w * 100 + h + 1);
        CHECK(round_trip(temp_dir() / "g.png", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.png", rgb) == rgb);
        CHECK(round_trip(temp_dir() / "g.pgm", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.ppm", rgb) == rgb);
        CHECK(round_trip(temp_dir() / "g.pnm", gray) == gray);
        CHECK(round_trip(temp_dir() / "c.bmp", rgb) == rgb);
        // Gray BMP: stored as 24-bit, read back as three equal channels.
        const Image back = round_trip(temp_dir() / "g.bmp", gray);
        REQUIRE(back.channels() == 3);
        for (int c = 0; c < 3; c++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) CHECK(back.at(x, y, c) == gray.at(x, y, 0));
    }
}

TEST_CASE("layouts: interleaved <-> planar") {
    const uint8_t interleaved[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // 2x2 RGB
    const Image image = from_interleaved(interleaved, 2, 2, 3);
    CHECK(image.at(0, 0, 0) == 1);
    CHECK(image.at(1, 0, 2) == 6);
    CHECK(image.at(0, 1, 1) == 8);
    CHECK(image.data()[4] == 2);  // planar: the green plane starts at 4
    CHECK(to_interleaved(image) == std::vector<uint8_t>(interleaved, interleaved + 12));
}

TEST_CASE("BMP: top-down files and the file's byte order") {
    // A 2x2 top-down 24-bit BMP built by hand: rows of 6 bytes padded to 8.
    std::vector<uint8_t> bmp = {'B', 'M', 70, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0, 2, 0, 0, 0,
                                0xfe, 0xff, 0xff, 0xff, 1, 0, 24, 0, 0, 0, 0, 0, 16, 0, 0, 0};
    bmp.resize(54, 0);
    const uint8_t rows[] = {1, 2, 3, 4, 5, 6, 0, 0, 7, 8, 9, 10, 11, 12, 0, 0};  // B, G, R per pixel
    bmp.insert(bmp.end(), rows, rows + 16);
    spit(temp_dir() / "topdown.bmp", bmp);
    const Image image = read_image((temp_dir() / "topdown.bmp").string());
    REQUIRE(image.width() == 2);
    REQUIRE(image.height() == 2);
    CHECK(image.at(0, 0, 0) == 3);  // first file row is the top row; R is the third byte
    CHECK(image.at(0, 0, 2) == 1);
    CHECK(image.at(1, 1, 0) == 12);
}

TEST_CASE("PNG conversions are made and reported") {
    std::vector<std::string> notices;
    // 16-bit gray: the high byte is kept.
    write_png_raw(temp_dir() / "g16.png", 2, 1, PNG_COLOR_TYPE_GRAY, 16, {0x12, 0x34, 0xab, 0xcd});
    Image g16 = read_image((temp_dir() / "g16.png").string(), &notices);
    CHECK(g16.at(0, 0, 0) == 0x12);
    CHECK(g16.at(1, 0, 0) == 0xab);
    REQUIRE(notices.size() == 1);
    CHECK(notices[0].find("16-bit") != std::string::npos);

    // Gray + alpha: alpha dropped.
    notices.clear();
    write_png_raw(temp_dir() / "ga.png", 2, 1, PNG_COLOR_TYPE_GRAY_ALPHA, 8, {10, 255, 20, 0});
    Image ga = read_image((temp_dir() / "ga.png").string(), &notices);
    CHECK(ga.channels() == 1);
    CHECK(ga.at(1, 0, 0) == 20);
    CHECK(notices.at(0).find("alpha") != std::string::npos);

    // RGBA: alpha dropped, RGB kept.
    notices.clear();
    write_png_raw(temp_dir() / "rgba.png", 1, 1, PNG_COLOR_TYPE_RGB_ALPHA, 8, {1, 2, 3, 4});
    Image rgba = read_image((temp_dir() / "rgba.png").string(), &notices);
    CHECK(rgba.channels() == 3);
    CHECK(rgba.at(0, 0, 2) == 3);
    CHECK(!notices.empty());

    check_palette_conversions(notices);

    // 2-bit gray: expanded to 8 bits (libpng scales 0..3 to 0..255).
    notices.clear();
    write_png_raw(temp_dir() / "g2.png", 4, 1, PNG_COLOR_TYPE_GRAY, 2, {0x1b});  // 0, 1, 2, 3
    const Image g2 = read_image((temp_dir() / "g2.png").string(), &notices);
    CHECK(g2.at(0, 0, 0) == 0);
    CHECK(g2.at(1, 0, 0) == 85);
    CHECK(g2.at(3, 0, 0) == 255);
    CHECK(notices.at(0).find("2-bit") != std::string::npos);

    // The bundled real images read as they are, without notices.
    notices.clear();
    const Image real = read_image(test_images_dir() + "/rgb_small.png", &notices);
    CHECK(real.width() == 192);
    CHECK(real.height() == 320);
    CHECK(real.channels() == 3);
    CHECK(notices.empty());
}

TEST_CASE("PNM: a comment right after maxval, as Netpbm allows") {
    const fs::path d = temp_dir();
    spit(d / "comment.pgm", std::string("P5 2 1 255# made by hand\nAB"));
    const Image image = read_image((d / "comment.pgm").string());
    CHECK(image.at(0, 0, 0) == 'A');
    CHECK(image.at(1, 0, 0) == 'B');
}
