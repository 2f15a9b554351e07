// PNG through libpng, with the memory a file can make us take bounded by the
// file: its chunks are walked before libpng sees them (no chunk may claim more
// bytes than remain), the header's size must be reachable by inflating the
// file's image data, ancillary chunks are capped (png_reading.h), and rows
// are stored only as they decode.
#include <png.h>

#include <algorithm>
#include <cstring>

#include "error.h"
#include "image_codecs.h"
#include "png_reading.h"

namespace filterlab::codecs {
namespace {

constexpr int kRowsPerBlock = 256;

// libpng's state and the rows decoded so far.
struct PngDecoder : png::ReadState {
    std::vector<std::vector<uint8_t>> blocks;  // interleaved rows, kRowsPerBlock a block (all, if interlaced)
    std::vector<png_bytep> row_pointers;        // interlaced images: into blocks[0]
};

// Reads the rows into d.blocks. No object with a destructor may live in this
// frame: libpng's longjmp would skip it. Non-interlaced images take memory a block of
// rows at a time, as rows decode; interlaced ones need every row at once
// (bounded by check_header). False on a libpng error, its message in d.message.
bool run_libpng(PngDecoder &d) {
    if (setjmp(png_jmpbuf(d.png))) return false;
    png::read_header(d, kMaxSide);
    const std::size_t row_bytes = static_cast<std::size_t>(d.width) * d.channels;
    const int rows_per_block = d.passes > 1 ? d.height : kRowsPerBlock;
    for (int y = 0; y < d.height; y++) {
        if (y % rows_per_block == 0) d.blocks.emplace_back(row_bytes * std::min(rows_per_block, d.height - y));
        if (d.passes == 1) png_read_row(d.png, d.blocks.back().data() + (y % rows_per_block) * row_bytes, nullptr);
    }
    if (d.passes > 1) {
        d.row_pointers.resize(d.height);
        for (int y = 0; y < d.height; y++) d.row_pointers[y] = d.blocks[0].data() + y * row_bytes;
        png_read_image(d.png, d.row_pointers.data());
    }
    png_read_end(d.png, nullptr);
    return true;
}

}  // namespace

Image decode_png(const std::string &name, const std::vector<uint8_t> &bytes, std::vector<std::string> *notices) {
    png::check_header(name,
                      png::scan_chunks(name, bytes.size(),
                                       [&](uint64_t at, uint8_t *to, std::size_t n) {
                                           if (at + n > bytes.size()) return false;
                                           std::memcpy(to, bytes.data() + at, n);
                                           return true;
                                       }),
                      kMaxSide);
    PngDecoder d;
    d.memory = bytes.data();
    d.memory_size = bytes.size();
    png::create(d, name);
    if (!run_libpng(d)) throw Error(name + ": corrupt PNG: " + d.message);

    Image image(d.width, d.height, d.channels);
    for (int y = 0; y < d.height; y++) {
        const int rows_per_block = d.blocks.size() == 1 ? d.height : kRowsPerBlock;
        const uint8_t *row = d.blocks[y / rows_per_block].data() +
                             static_cast<std::size_t>(y % rows_per_block) * d.width * d.channels;
        for (int c = 0; c < d.channels; c++) {
            uint8_t *out = image.row(y, c);
            for (int x = 0; x < d.width; x++) out[x] = row[x * d.channels + c];
        }
    }
    if (notices) {
        for (auto &n : d.notices) notices->push_back(name + ": " + n);
    }
    return image;
}

namespace {

struct PngEncoder {
    char message[256] = "";
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~PngEncoder() {
        if (png) png_destroy_write_struct(&png, info ? &info : nullptr);
    }
};

[[noreturn]] void on_write_error(png_structp png, png_const_charp message) {
    auto *e = static_cast<PngEncoder *>(png_get_error_ptr(png));
    std::snprintf(e->message, sizeof e->message, "%s", message);
    png_longjmp(png, 1);
}

void on_write_warning(png_structp, png_const_charp) {}

bool run_libpng_write(PngEncoder &e, std::FILE *file, const Image &image, const std::vector<png_bytep> &rows) {
    if (setjmp(png_jmpbuf(e.png))) return false;
    png_init_io(e.png, file);
    png_set_IHDR(e.png, e.info, image.width(), image.height(), 8,
                 image.channels() == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(e.png, e.info);
    png_write_image(e.png, const_cast<png_bytepp>(rows.data()));
    png_write_end(e.png, nullptr);
    return true;
}

}  // namespace

void encode_png(std::FILE *file, const std::string &name, const Image &image) {
    std::vector<uint8_t> pixels = to_interleaved(image);
    std::vector<png_bytep> rows(image.height());
    const std::size_t row_bytes = static_cast<std::size_t>(image.width()) * image.channels();
    for (int y = 0; y < image.height(); y++) rows[y] = pixels.data() + y * row_bytes;
    PngEncoder e;
    e.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e, on_write_error, on_write_warning);
    if (!e.png) throw Error(name + ": cannot initialise libpng");
    e.info = png_create_info_struct(e.png);
    if (!e.info) throw Error(name + ": cannot initialise libpng");
    if (!run_libpng_write(e, file, image, rows)) throw Error(name + ": cannot write PNG: " + e.message);
}

}  // namespace filterlab::codecs
