#include "png_reading.h"

#include <cctype>
#include <cstring>

#include "error.h"
#include "image.h"
#include "image_codecs.h"

namespace filterlab::codecs::png {
namespace {

// Ancillary chunks libpng still reads (palettes, transparency, gamma...)
// larger than this, once decompressed, are skipped with a warning.
constexpr png_alloc_size_t kMaxAncillaryBytes = 8u << 20;

// Ancillary chunks we never use, dropped unread (no text, no profile, no
// suggested palette is kept, however many the file holds).
const png_byte kDroppedChunks[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0hIST\0eXIf\0tIME\0pCAL\0sCAL";

uint32_t be32(const uint8_t *p) {
    return static_cast<uint32_t>(p[0]) << 24 | static_cast<uint32_t>(p[1]) << 16 | p[2] << 8 | p[3];
}

std::string chunk_name(const uint8_t *type) {
    std::string name;
    for (int i = 0; i < 4; i++) name += std::isalpha(type[i]) ? static_cast<char>(type[i]) : '?';
    return name;
}

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
    auto *d = static_cast<ReadState *>(png_get_error_ptr(png));
    std::snprintf(d->message, sizeof d->message, "%s", message);
    png_longjmp(png, 1);
}

void on_warning(png_structp png, png_const_charp message) {
    auto *d = static_cast<ReadState *>(png_get_error_ptr(png));
    try {
        if (d->notices.size() < 8) d->notices.push_back(std::string("libpng: ") + message);
    } catch (...) {  // nothing may unwind through libpng's C frames
    }
}

void on_read(png_structp png, png_bytep out, png_size_t length) {
    auto *d = static_cast<ReadState *>(png_get_io_ptr(png));
    if (d->file) {
        if (std::fread(out, 1, length, d->file) != length) png_error(png, "file is truncated");
        return;
    }
    if (length > d->memory_size - d->offset) png_error(png, "file is truncated");
    std::memcpy(out, d->memory + d->offset, length);
    d->offset += length;
}

// Asks libpng for 8-bit gray or RGB and notes each conversion.
void request_conversions(ReadState &d) {
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

}  // namespace

Header scan_chunks(const std::string &name, uint64_t size, const ReadAt &read_at) {
    Header header;
    bool seen_ihdr = false;
    uint8_t head[8 + 13];
    for (uint64_t at = 8; at + 8 <= size;) {
        if (!read_at(at, head, 8)) throw Error(name + ": cannot read the PNG's chunks");
        const uint32_t length = be32(head);
        const uint8_t *type = head + 4;
        const uint64_t remaining = size - at - 8;
        if (length > 0x7fffffffu) throw Error(name + ": corrupt PNG: chunk length beyond PNG's limit");
        if (static_cast<uint64_t>(length) + 4 > remaining) {
            throw Error(name + ": file is truncated: PNG chunk '" + chunk_name(type) + "' claims " +
                        std::to_string(length) + " bytes, " + std::to_string(remaining) + " remain");
        }
        if (std::memcmp(type, "IHDR", 4) == 0 && length == 13 && !seen_ihdr) {
            if (!read_at(at + 8, head + 8, 13)) throw Error(name + ": cannot read the PNG's header");
            header.width = be32(head + 8);
            header.height = be32(head + 12);
            header.bit_depth = head[16];
            header.color_type = head[17];
            header.interlace = head[20];
            seen_ihdr = true;
        }
        if (std::memcmp(type, "IDAT", 4) == 0) header.image_data_bytes += length;
        if (std::memcmp(type, "IEND", 4) == 0) break;
        at += 12 + static_cast<uint64_t>(length);
    }
    if (!seen_ihdr) throw Error(name + ": corrupt PNG: no image header (IHDR)");
    return header;
}

void check_header(const std::string &name, const Header &h, long long max_side) {
    const int channels = (h.color_type & PNG_COLOR_MASK_COLOR) ? 3 : 1;
    if (max_side == kMaxSide) {
        try {
            check_image_shape(h.width, h.height, channels);
        } catch (const Error &e) {
            throw Error(name + ": " + e.what());
        }
    } else if (h.width < 1 || h.height < 1 || h.width > max_side || h.height > max_side) {
        throw Error(name + ": unsupported image size " + std::to_string(h.width) + "x" + std::to_string(h.height) +
                    " (1 to " + std::to_string(max_side) + " per side)");
    }
    const int samples = h.color_type == PNG_COLOR_TYPE_PALETTE ? 1 : channels + ((h.color_type & PNG_COLOR_MASK_ALPHA) ? 1 : 0);
    const uint64_t row_bytes = (static_cast<uint64_t>(h.width) * samples * h.bit_depth + 7) / 8;
    const uint64_t least_raw = row_bytes * h.height;  // without the filter bytes or interlacing
    if (least_raw > h.image_data_bytes * kMaxInflateRatio + 4096) {
        throw Error(name + ": file is truncated: " + std::to_string(h.image_data_bytes) +
                    " bytes of image data cannot hold " + std::to_string(h.width) + "x" + std::to_string(h.height));
    }
}

ReadState::~ReadState() {
    if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
}

void create(ReadState &d, const std::string &name) {
    d.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d, on_error, on_warning);
    if (!d.png) throw Error(name + ": cannot initialise libpng");
    d.info = png_create_info_struct(d.png);
    if (!d.info) throw Error(name + ": cannot initialise libpng");
}

void read_header(ReadState &d, long long max_side) {
    png_set_read_fn(d.png, &d, on_read);
    png_set_user_limits(d.png, static_cast<png_uint_32>(max_side), static_cast<png_uint_32>(max_side));
    png_set_chunk_malloc_max(d.png, kMaxAncillaryBytes);
    png_set_keep_unknown_chunks(d.png, PNG_HANDLE_CHUNK_NEVER, kDroppedChunks, sizeof kDroppedChunks / 5);
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    // Mutated chunks keep going past their CRC, so the fuzzer reaches the decoder.
    png_set_crc_action(d.png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
#endif
    png_read_info(d.png, d.info);
    request_conversions(d);
    d.passes = png_set_interlace_handling(d.png);
    png_read_update_info(d.png, d.info);
    d.width = static_cast<int>(png_get_image_width(d.png, d.info));
    d.height = static_cast<int>(png_get_image_height(d.png, d.info));
    d.channels = png_get_channels(d.png, d.info);
    if ((d.channels != 1 && d.channels != 3) || png_get_bit_depth(d.png, d.info) != 8) {
        png_error(d.png, "unsupported PNG layout");
    }
}

}  // namespace filterlab::codecs::png
