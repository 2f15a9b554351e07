// What the image-file tests share (test_image_io.cpp, test_image_io_errors.cpp,
// test_png_rows.cpp): one scratch folder per test process, writing a file's
// bytes as given, and PNGs of any libpng layout.
#pragma once

#include <png.h>
#include <unistd.h>

#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace image_io_test {

inline std::filesystem::path temp_dir() {
    static const std::filesystem::path dir = [] {
        std::filesystem::path d =
            std::filesystem::temp_directory_path() / ("filterlab_io_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

inline void spit(const std::filesystem::path &p, const std::vector<uint8_t> &bytes) {
    std::ofstream out(p, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

inline std::vector<uint8_t> slurp(const std::filesystem::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void spit(const std::filesystem::path &p, const std::string &text) {
    spit(p, std::vector<uint8_t>(text.begin(), text.end()));
}

// Writes a PNG of any libpng layout, for the conversion tests.
inline void write_png_raw(const std::filesystem::path &p, int w, int h, int color, int depth,
                          const std::vector<uint8_t> &rows, bool palette = false, int interlace = PNG_INTERLACE_NONE) {
    FILE *f = std::fopen(p.c_str(), "wb");
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_init_io(png, f);
    png_set_IHDR(png, info, w, h, depth, color, interlace, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_color colors[2] = {{10, 20, 30}, {200, 100, 50}};
    if (palette) png_set_PLTE(png, info, colors, 2);
    png_write_info(png, info);
    const std::size_t row_bytes = rows.size() / h;
    const int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++)
        for (int y = 0; y < h; y++) png_write_row(png, const_cast<uint8_t *>(rows.data() + y * row_bytes));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    std::fclose(f);
}

}  // namespace image_io_test
