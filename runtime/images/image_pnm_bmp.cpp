// Binary PGM/PPM and 24-bit BMP: headers checked against the file's length
// before any pixel memory is taken.
#include <algorithm>
#include <cctype>

#include "error.h"
#include "image_codecs.h"

namespace filterlab::codecs {
namespace {

void check_shape(const std::string &name, long long width, long long height, int channels) {
    try {
        check_image_shape(width, height, channels);
    } catch (const Error &e) {
        throw Error(name + ": " + e.what());
    }
}

// Netpbm's header: magic, width, height, maxval, each separated by
// whitespace; a '#' starts a comment that runs to the end of its line.
class PnmHeaderReader {
public:
    PnmHeaderReader(const std::string &name, const std::vector<uint8_t> &bytes) : name_(name), bytes_(bytes) {}

    long long number(const char *what) {
        skip_space_and_comments();
        if (pos_ >= bytes_.size() || !std::isdigit(bytes_[pos_])) {
            throw Error(name_ + ": corrupt PNM header: " + what + " missing");
        }
        long long value = 0;
        while (pos_ < bytes_.size() && std::isdigit(bytes_[pos_])) {
            value = value * 10 + (bytes_[pos_++] - '0');
            if (value > (1LL << 40)) throw Error(name_ + ": corrupt PNM header: " + what + " too large");
        }
        return value;
    }

    // After maxval: one whitespace byte, or a comment whose closing newline
    // is that byte. Returns where the samples start.
    std::size_t raster_start() {
        if (pos_ < bytes_.size() && bytes_[pos_] == '#') {
            while (pos_ < bytes_.size() && bytes_[pos_] != '\n' && bytes_[pos_] != '\r') pos_++;
        }
        if (pos_ >= bytes_.size() || !std::isspace(bytes_[pos_])) throw Error(name_ + ": corrupt PNM header");
        return pos_ + 1;
    }

private:
    void skip_space_and_comments() {
        for (;;) {
            while (pos_ < bytes_.size() && std::isspace(bytes_[pos_])) pos_++;
            if (pos_ >= bytes_.size() || bytes_[pos_] != '#') return;
            while (pos_ < bytes_.size() && bytes_[pos_] != '\n' && bytes_[pos_] != '\r') pos_++;
        }
    }

    const std::string &name_;
    const std::vector<uint8_t> &bytes_;
    std::size_t pos_ = 2;  // after the magic
};

}  // namespace

PnmLayout pnm_layout(const std::string &name, const std::vector<uint8_t> &header_bytes, std::size_t file_size,
                     long long max_side) {
    if (header_bytes.size() < 2 || header_bytes[0] != 'P' || (header_bytes[1] != '5' && header_bytes[1] != '6')) {
        throw Error(name + ": not a binary PGM/PPM (P5/P6)");
    }
    const int channels = header_bytes[1] == '5' ? 1 : 3;
    PnmHeaderReader header(name, header_bytes);
    const long long width = header.number("width");
    const long long height = header.number("height");
    const long long maxval = header.number("maxval");
    const std::size_t start = header.raster_start();
    if (maxval != 255) {
        throw Error(name + ": unsupported PNM maxval " + std::to_string(maxval) + " (only 8-bit, maxval 255)");
    }
    if (max_side == kMaxSide) {
        check_shape(name, width, height, channels);
    } else if (width < 1 || height < 1 || width > max_side || height > max_side) {
        throw Error(name + ": unsupported image size " + std::to_string(width) + "x" + std::to_string(height) +
                    " (1 to " + std::to_string(max_side) + " per side)");
    }
    const std::size_t needed = static_cast<std::size_t>(width * height * channels);
    if (file_size - start < needed) {
        throw Error(name + ": file is truncated (" + std::to_string(file_size - start) + " of " +
                    std::to_string(needed) + " sample bytes)");
    }
    return {static_cast<int>(width), static_cast<int>(height), channels, start};
}

Image decode_pnm(const std::string &name, const std::vector<uint8_t> &bytes) {
    const PnmLayout layout = pnm_layout(name, bytes, bytes.size());
    return from_interleaved(bytes.data() + layout.raster_start, layout.width, layout.height, layout.channels);
}

std::string pnm_header(int width, int height, int channels) {
    return "P" + std::string(channels == 1 ? "5" : "6") + "\n" + std::to_string(width) + " " + std::to_string(height) +
           "\n255\n";
}

void encode_pnm(std::FILE *file, const Image &image) {
    std::fputs(pnm_header(image.width(), image.height(), image.channels()).c_str(), file);
    const std::vector<uint8_t> pixels = to_interleaved(image);
    std::fwrite(pixels.data(), 1, pixels.size(), file);
}

namespace {

uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24; }
uint16_t le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

void put_le(std::vector<uint8_t> &out, uint32_t value, int bytes) {
    for (int i = 0; i < bytes; i++) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

}  // namespace

Image decode_bmp(const std::string &name, const std::vector<uint8_t> &bytes) {
    if (bytes.size() < 54) throw Error(name + ": file is truncated (BMP header)");
    const uint32_t data_offset = le32(&bytes[10]);
    const uint32_t header_size = le32(&bytes[14]);
    if (header_size < 40) throw Error(name + ": unsupported BMP header (OS/2 BMP)");
    const int32_t width = static_cast<int32_t>(le32(&bytes[18]));
    const int32_t signed_height = static_cast<int32_t>(le32(&bytes[22]));
    const uint16_t bits = le16(&bytes[28]);
    const uint32_t compression = le32(&bytes[30]);
    if (bits != 24) throw Error(name + ": unsupported BMP: " + std::to_string(bits) + " bits per pixel (only 24)");
    if (compression != 0) throw Error(name + ": unsupported BMP: compressed (only uncompressed)");
    const bool top_down = signed_height < 0;
    const long long height = top_down ? -static_cast<long long>(signed_height) : signed_height;
    check_shape(name, width, height, 3);
    const std::size_t row_bytes = (static_cast<std::size_t>(width) * 3 + 3) / 4 * 4;
    if (data_offset > bytes.size() || bytes.size() - data_offset < row_bytes * (height - 1) + width * 3ULL) {
        throw Error(name + ": file is truncated (BMP pixel data)");
    }
    Image image(width, static_cast<int>(height), 3);
    for (int y = 0; y < height; y++) {
        const int file_row = top_down ? y : static_cast<int>(height) - 1 - y;
        const uint8_t *row = bytes.data() + data_offset + file_row * row_bytes;
        for (int x = 0; x < width; x++) {
            image.at(x, y, 0) = row[3 * x + 2];
            image.at(x, y, 1) = row[3 * x + 1];
            image.at(x, y, 2) = row[3 * x + 0];
        }
    }
    return image;
}

void encode_bmp(std::FILE *file, const std::string &name, const Image &image) {
    const int w = image.width(), h = image.height();
    const std::size_t row_bytes = (static_cast<std::size_t>(w) * 3 + 3) / 4 * 4;
    const std::size_t data_bytes = row_bytes * h;
    if (data_bytes + 54 > 0xffffffffULL) throw Error(name + ": image too large for BMP");
    std::vector<uint8_t> out;
    out.reserve(54 + data_bytes);
    out.push_back('B');
    out.push_back('M');
    put_le(out, static_cast<uint32_t>(54 + data_bytes), 4);
    put_le(out, 0, 4);
    put_le(out, 54, 4);
    put_le(out, 40, 4);
    put_le(out, w, 4);
    put_le(out, h, 4);  // positive: bottom-up
    put_le(out, 1, 2);
    put_le(out, 24, 2);
    put_le(out, 0, 4);
    put_le(out, static_cast<uint32_t>(data_bytes), 4);
    put_le(out, 2835, 4);
    put_le(out, 2835, 4);
    put_le(out, 0, 4);
    put_le(out, 0, 4);
    const int last = image.channels() - 1;
    for (int y = h - 1; y >= 0; y--) {
        for (int x = 0; x < w; x++) {
            out.push_back(image.at(x, y, std::min(2, last)));
            out.push_back(image.at(x, y, std::min(1, last)));
            out.push_back(image.at(x, y, 0));
        }
        for (std::size_t pad = static_cast<std::size_t>(w) * 3; pad < row_bytes; pad++) out.push_back(0);
    }
    std::fwrite(out.data(), 1, out.size(), file);
}

}  // namespace filterlab::codecs
