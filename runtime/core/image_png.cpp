// PNG through libpng, with the memory a file can make us take bounded by the
// file: its chunks are walked before libpng sees them (no chunk may claim more
// bytes than remain), the header's size must be reachable by inflating the
// file's image data, ancillary chunks are capped, and rows are stored only as
// they decode.
#include <png.h>

#include <cstring>

#include "error.h"
#include "image_codecs.h"

namespace filterlab::codecs {
namespace {

// Ancillary chunks libpng still reads (palettes, transparency, gamma...)
// larger than this, once decompressed, are skipped with a warning.
constexpr png_alloc_size_t kMaxAncillaryBytes = 8u << 20;
constexpr int kRowsPerBlock = 256;

uint32_t be32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 | p[2] << 8 | p[3];
}

struct PngHeader {
    uint32_t width = 0, height = 0;
    int bit_depth = 0, color_type = 0;
    uint64_t image_data_bytes = 0;  // the IDAT chunks' total length
};

std::string chunk_name(const uint8_t *type) {
    std::string name;
    for (int i = 0; i < 4; i++) name += std::isalpha(type[i]) ? static_cast<char>(type[i]) : '?';
    return name;
}

// Walks the chunk list up to IEND (or the end of the file): every chunk must
// fit in what remains. Reads IHDR and sums the IDAT lengths.
PngHeader scan_chunks(const std::string &name, const std::vector<uint8_t> &bytes) {
    PngHeader header;
    bool seen_ihdr = false;
    for (std::size_t at = 8; at + 8 <= bytes.size();) {
        const uint32_t length = be32(&bytes[at]);
        const uint8_t *type = &bytes[at + 4];
        const std::size_t remaining = bytes.size() - at - 8;
        if (length > 0x7fffffffu) throw Error(name + ": corrupt PNG: chunk length beyond PNG's limit");
        if (static_cast<std::size_t>(length) + 4 > remaining) {
            throw Error(name + ": file is truncated: PNG chunk '" + chunk_name(type) + "' claims " +
                        std::to_string(length) + " bytes, " + std::to_string(remaining) + " remain");
        }
        if (std::memcmp(type, "IHDR", 4) == 0 && length == 13 && !seen_ihdr) {
            header.width = be32(type + 4);
            header.height = be32(type + 8);
            header.bit_depth = type[12];
            header.color_type = type[13];
            seen_ihdr = true;
        }
        if (std::memcmp(type, "IDAT", 4) == 0) header.image_data_bytes += length;
        if (std::memcmp(type, "IEND", 4) == 0) break;
        at += 12 + static_cast<std::size_t>(length);
    }
    if (!seen_ihdr) throw Error(name + ": corrupt PNG: no image header (IHDR)");
    return header;
}

// Refuses a header whose image could not fit the limits, or could not be
// inflated from the file's image data.
void check_header(const std::string &name, const PngHeader &h) {
    const int channels = (h.color_type & PNG_COLOR_MASK_COLOR) ? 3 : 1;
    try {
        check_image_shape(h.width, h.height, channels);
    } catch (const Error &e) {
        throw Error(name + ": " + e.what());
    }
    const int samples = h.color_type == PNG_COLOR_TYPE_PALETTE ? 1 : channels + ((h.color_type & PNG_COLOR_MASK_ALPHA) ? 1 : 0);
    const uint64_t row_bytes = (static_cast<uint64_t>(h.width) * samples * h.bit_depth + 7) / 8;
    const uint64_t least_raw = row_bytes * h.height;  // without the filter bytes or interlacing
    if (least_raw > h.image_data_bytes * kMaxInflateRatio + 4096) {
        throw Error(name + ": file is truncated: " + std::to_string(h.image_data_bytes) +
                    " bytes of image data cannot hold " + std::to_string(h.width) + "x" + std::to_string(h.height));
    }
}

// Everything libpng's longjmp may reach lives here, outside the frame that
// calls setjmp; the destructor frees libpng's state on every path.
struct PngDecoder {
    const std::vector<uint8_t> *bytes = nullptr;
    std::size_t offset = 0;
    char message[256] = "";
    std::vector<std::string> notices;
    png_structp png = nullptr;
    png_infop info = nullptr;
    int width = 0, height = 0, channels = 0;
    std::vector<std::vector<uint8_t>> blocks;  // interleaved rows, kRowsPerBlock a block (all, if interlaced)
    std::vector<png_bytep> row_pointers;        // interlaced images: into blocks[0]

    ~PngDecoder() {
        if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
    }
};

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
    auto *d = static_cast<PngDecoder *>(png_get_error_ptr(png));
    std::snprintf(d->message, sizeof d->message, "%s", message);
    png_longjmp(png, 1);
}

void on_warning(png_structp png, png_const_charp message) {
    auto *d = static_cast<PngDecoder *>(png_get_error_ptr(png));
    try {
        if (d->notices.size() < 8) d->notices.push_back(std::string("libpng: ") + message);
    } catch (...) {  // nothing may unwind through libpng's C frames
    }
}

// Ancillary chunks we never use, dropped unread (no text, no profile, no
// suggested palette is kept, however many the file holds).
const png_byte kDroppedChunks[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0hIST\0eXIf\0tIME\0pCAL\0sCAL";

void on_read(png_structp png, png_bytep out, png_size_t length) {
    auto *d = static_cast<PngDecoder *>(png_get_io_ptr(png));
    if (length > d->bytes->size() - d->offset) png_error(png, "file is truncated");
    std::memcpy(out, d->bytes->data() + d->offset, length);
    d->offset += length;
}

// Asks libpng for 8-bit gray or RGB and notes each conversion.
void request_conversions(PngDecoder &d) {
    const int color = png_get_color_type(d.png, d.info), depth = png_get_bit_depth(d.png, d.info);
    if (depth == 16) {
        png_set_strip_16(d.png);
        d.notices.push_back("16-bit PNG reduced to 8 bits (high byte kept)");
    }
    if (color == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(d.png);
        d.notices.push_back("palette PNG expanded to RGB");
    }
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) {
        png_set_expand_gray_1_2_4_to_8(d.png);
        d.notices.push_back(std::to_string(depth) + "-bit gray PNG expanded to 8 bits");
    }
    if (color & PNG_COLOR_MASK_ALPHA) {
        png_set_strip_alpha(d.png);
        d.notices.push_back("alpha channel dropped");
    }
    if (png_get_valid(d.png, d.info, PNG_INFO_tRNS)) {
        // Palette expansion turns tRNS into an alpha channel: drop it too.
        png_set_strip_alpha(d.png);
        d.notices.push_back("transparency (tRNS) ignored");
    }
}

// Reads the rows into d.blocks. No object with a destructor may live in this
// frame: libpng's longjmp would skip it. Non-interlaced images take memory a block of
// rows at a time, as rows decode; interlaced ones need every row at once
// (bounded by check_header). False on a libpng error, its message in d.message.
bool run_libpng(PngDecoder &d) {
    if (setjmp(png_jmpbuf(d.png))) return false;
    png_set_read_fn(d.png, &d, on_read);
    png_set_user_limits(d.png, kMaxSide, kMaxSide);
    png_set_chunk_malloc_max(d.png, kMaxAncillaryBytes);
    png_set_keep_unknown_chunks(d.png, PNG_HANDLE_CHUNK_NEVER, kDroppedChunks, sizeof kDroppedChunks / 5);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    // Mutated chunks keep going past their CRC, so the fuzzer reaches the decoder.
    png_set_crc_action(d.png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#endif
    png_read_info(d.png, d.info);
    request_conversions(d);
    const int passes = png_set_interlace_handling(d.png);
    png_read_update_info(d.png, d.info);
    d.width = static_cast<int>(png_get_image_width(d.png, d.info));
    d.height = static_cast<int>(png_get_image_height(d.png, d.info));
    d.channels = png_get_channels(d.png, d.info);
    if ((d.channels != 1 && d.channels != 3) || png_get_bit_depth(d.png, d.info) != 8) {
        png_error(d.png, "unsupported PNG layout");
    }
    const std::size_t row_bytes = static_cast<std::size_t>(d.width) * d.channels;
    const int rows_per_block = passes > 1 ? d.height : kRowsPerBlock;
    for (int y = 0; y < d.height; y++) {
        if (y % rows_per_block == 0) d.blocks.emplace_back(row_bytes * std::min(rows_per_block, d.height - y));
        if (passes == 1) png_read_row(d.png, d.blocks.back().data() + (y % rows_per_block) * row_bytes, nullptr);
    }
    if (passes > 1) {
        d.row_pointers.resize(d.height);
        for (int y = 0; y < d.height; y++) d.row_pointers[y] = d.blocks[0].data() + y * row_bytes;
        png_read_image(d.png, d.row_pointers.data());
    }
    png_read_end(d.png, nullptr);
    return true;
}

}  // namespace

Image decode_png(const std::string &name, const std::vector<uint8_t> &bytes, std::vector<std::string> *notices) {
    check_header(name, scan_chunks(name, bytes));
    PngDecoder d;
    d.bytes = &bytes;
    d.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d, on_error, on_warning);
    if (!d.png) throw Error(name + ": cannot initialise libpng");
    d.info = png_create_info_struct(d.png);
    if (!d.info) throw Error(name + ": cannot initialise libpng");
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
