#include "image_io.h"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"

namespace filterlab {
namespace {

std::string lower_extension(const std::string &path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return ext;
}

std::vector<uint8_t> read_file(const std::string &path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw Error(path + ": is a directory, not an image");
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
        throw Error(path + ": not a regular file");  // a FIFO or a device would be read without end
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(path + ": cannot open: " + std::strerror(errno));
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(path + ": read error");
    return bytes;
}

// ---------------------------------------------------------------- PNG

struct PngReadState {
    const std::vector<uint8_t> *bytes;
    std::size_t offset;
    char message[256];
};

[[noreturn]] void png_error_handler(png_structp png, png_const_charp message) {
    auto *state = static_cast<PngReadState *>(png_get_error_ptr(png));
    std::snprintf(state->message, sizeof state->message, "%s", message);
    png_longjmp(png, 1);
}

void png_warning_handler(png_structp, png_const_charp) {}

void png_read_bytes(png_structp png, png_bytep out, png_size_t length) {
    auto *state = static_cast<PngReadState *>(png_get_io_ptr(png));
    if (state->offset + length > state->bytes->size()) png_error(png, "file is truncated");
    std::memcpy(out, state->bytes->data() + state->offset, length);
    state->offset += length;
}

Image decode_png(const std::string &path, const std::vector<uint8_t> &bytes, std::vector<std::string> *notices) {
    PngReadState state{&bytes, 0, ""};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, png_error_handler, png_warning_handler);
    if (!png) throw Error(path + ": cannot initialise libpng");
    png_infop info = png_create_info_struct(png);
    // Everything the longjmp may skip over lives outside this frame.
    std::vector<uint8_t> pixels;
    std::vector<png_bytep> rows;
    std::vector<std::string> local_notices;
    int width = 0, height = 0, channels = 0;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw Error(path + ": corrupt PNG: " + state.message);
    }
    if (!info) png_error(png, "out of memory");
    png_set_read_fn(png, &state, png_read_bytes);
    png_set_user_limits(png, kMaxSide, kMaxSide);
    png_read_info(png, info);

    const png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    const int color = png_get_color_type(png, info), depth = png_get_bit_depth(png, info);
    if (depth == 16) {
        png_set_strip_16(png);
        local_notices.push_back("16-bit PNG reduced to 8 bits (high byte kept)");
    }
    if (color == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
        local_notices.push_back("palette PNG expanded to RGB");
    }
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
        local_notices.push_back(std::to_string(depth) + "-bit gray PNG expanded to 8 bits");
    }
    if (color & PNG_COLOR_MASK_ALPHA) {
        png_set_strip_alpha(png);
        local_notices.push_back("alpha channel dropped");
    }
    if (png_get_valid(png, info, PNG_INFO_tRNS)) {
        // Palette expansion turns tRNS into an alpha channel: drop it too.
        png_set_strip_alpha(png);
        local_notices.push_back("transparency (tRNS) ignored");
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    channels = png_get_channels(png, info);
    if ((channels != 1 && channels != 3) || png_get_bit_depth(png, info) != 8) {
        png_error(png, "unsupported PNG layout");
    }
    width = static_cast<int>(w);
    height = static_cast<int>(h);
    try {
        check_image_shape(width, height, channels);
    } catch (const Error &e) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw Error(path + ": " + e.what());
    }
    pixels.resize(static_cast<std::size_t>(width) * height * channels);
    rows.resize(height);
    for (int y = 0; y < height; y++) rows[y] = pixels.data() + static_cast<std::size_t>(y) * width * channels;
    png_read_image(png, rows.data());
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    if (notices) {
        for (auto &n : local_notices) notices->push_back(path + ": " + n);
    }
    return from_interleaved(pixels.data(), width, height, channels);
}

struct PngWriteState {
    std::FILE *file;
    char message[256];
};

[[noreturn]] void png_write_error_handler(png_structp png, png_const_charp message) {
    auto *state = static_cast<PngWriteState *>(png_get_error_ptr(png));
    std::snprintf(state->message, sizeof state->message, "%s", message);
    png_longjmp(png, 1);
}

void encode_png(std::FILE *file, const std::string &path, const Image &image) {
    PngWriteState state{file, ""};
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, png_write_error_handler, png_warning_handler);
    if (!png) throw Error(path + ": cannot initialise libpng");
    png_infop info = png_create_info_struct(png);
    std::vector<uint8_t> pixels = to_interleaved(image);
    std::vector<png_bytep> rows(image.height());
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw Error(path + ": cannot write PNG: " + state.message);
    }
    if (!info) png_error(png, "out of memory");
    png_init_io(png, file);
    png_set_IHDR(png, info, image.width(), image.height(), 8,
                 image.channels() == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    const std::size_t row_bytes = static_cast<std::size_t>(image.width()) * image.channels();
    for (int y = 0; y < image.height(); y++) rows[y] = pixels.data() + y * row_bytes;
    png_write_info(png, info);
    png_write_image(png, rows.data());
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
}

// ---------------------------------------------------------------- PGM / PPM

// Reads the header of a binary PNM: magic, width, height, maxval, each
// separated by whitespace or '#' comments, then one whitespace byte.
Image decode_pnm(const std::string &path, const std::vector<uint8_t> &bytes) {
    const int channels = bytes[1] == '5' ? 1 : 3;
    std::size_t pos = 2;
    auto next_number = [&](const char *what) -> long long {
        for (;;) {
            while (pos < bytes.size() && std::isspace(bytes[pos])) pos++;
            if (pos < bytes.size() && bytes[pos] == '#') {
                while (pos < bytes.size() && bytes[pos] != '\n') pos++;
                continue;
            }
            break;
        }
        if (pos >= bytes.size() || !std::isdigit(bytes[pos])) {
            throw Error(path + ": corrupt PNM header: " + what + " missing");
        }
        long long value = 0;
        while (pos < bytes.size() && std::isdigit(bytes[pos])) {
            value = value * 10 + (bytes[pos++] - '0');
            if (value > (1LL << 40)) throw Error(path + ": corrupt PNM header: " + what + " too large");
        }
        return value;
    };
    const long long width = next_number("width");
    const long long height = next_number("height");
    const long long maxval = next_number("maxval");
    if (pos >= bytes.size() || !std::isspace(bytes[pos])) throw Error(path + ": corrupt PNM header");
    pos++;
    if (maxval != 255) {
        throw Error(path + ": unsupported PNM maxval " + std::to_string(maxval) + " (only 8-bit, maxval 255)");
    }
    try {
        check_image_shape(width, height, channels);
    } catch (const Error &e) {
        throw Error(path + ": " + e.what());
    }
    const std::size_t needed = static_cast<std::size_t>(width * height * channels);
    if (bytes.size() - pos < needed) {
        throw Error(path + ": file is truncated (" + std::to_string(bytes.size() - pos) + " of " +
                    std::to_string(needed) + " sample bytes)");
    }
    return from_interleaved(bytes.data() + pos, static_cast<int>(width), static_cast<int>(height), channels);
}

void encode_pnm(std::FILE *file, const std::string &path, const Image &image) {
    const std::string ext = lower_extension(path);
    if (ext == ".pgm" && image.channels() != 1) throw Error(path + ": a PGM file holds gray images only; use .ppm");
    if (ext == ".ppm" && image.channels() != 3) throw Error(path + ": a PPM file holds RGB images only; use .pgm");
    std::fprintf(file, "P%c\n%d %d\n255\n", image.channels() == 1 ? '5' : '6', image.width(), image.height());
    const std::vector<uint8_t> pixels = to_interleaved(image);
    std::fwrite(pixels.data(), 1, pixels.size(), file);
}

// ---------------------------------------------------------------- BMP

uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24; }
uint16_t le16(const uint8_t *p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

Image decode_bmp(const std::string &path, const std::vector<uint8_t> &bytes) {
    if (bytes.size() < 54) throw Error(path + ": file is truncated (BMP header)");
    const uint32_t data_offset = le32(&bytes[10]);
    const uint32_t header_size = le32(&bytes[14]);
    if (header_size < 40) throw Error(path + ": unsupported BMP header (OS/2 BMP)");
    const int32_t width = static_cast<int32_t>(le32(&bytes[18]));
    const int32_t signed_height = static_cast<int32_t>(le32(&bytes[22]));
    const uint16_t bits = le16(&bytes[28]);
    const uint32_t compression = le32(&bytes[30]);
    if (bits != 24) throw Error(path + ": unsupported BMP: " + std::to_string(bits) + " bits per pixel (only 24)");
    if (compression != 0) throw Error(path + ": unsupported BMP: compressed (only uncompressed)");
    const bool top_down = signed_height < 0;
    const long long height = top_down ? -static_cast<long long>(signed_height) : signed_height;
    try {
        check_image_shape(width, height, 3);
    } catch (const Error &e) {
        throw Error(path + ": " + e.what());
    }
    const std::size_t row_bytes = (static_cast<std::size_t>(width) * 3 + 3) / 4 * 4;
    if (data_offset > bytes.size() || bytes.size() - data_offset < row_bytes * (height - 1) + width * 3ULL) {
        throw Error(path + ": file is truncated (BMP pixel data)");
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

void put_le(std::vector<uint8_t> &out, uint32_t value, int bytes) {
    for (int i = 0; i < bytes; i++) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void encode_bmp(std::FILE *file, const Image &image, const std::string &path, std::vector<std::string> *notices) {
    const int w = image.width(), h = image.height();
    const std::size_t row_bytes = (static_cast<std::size_t>(w) * 3 + 3) / 4 * 4;
    const std::size_t data_bytes = row_bytes * h;
    if (data_bytes + 54 > 0xffffffffULL) throw Error(path + ": image too large for BMP");
    if (image.channels() == 1 && notices) notices->push_back(path + ": gray image stored as 24-bit BMP (R = G = B)");
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

}  // namespace

Image read_image(const std::string &path, std::vector<std::string> *notices) {
    const std::vector<uint8_t> bytes = read_file(path);
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::equal(png_magic, png_magic + 8, bytes.begin())) {
        return decode_png(path, bytes, notices);
    }
    if (bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6')) {
        return decode_pnm(path, bytes);
    }
    if (bytes.size() >= 2 && bytes[0] == 'B' && bytes[1] == 'M') return decode_bmp(path, bytes);
    if (bytes.empty()) throw Error(path + ": empty file");
    if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '4') {
        throw Error(path + ": unsupported format: ASCII/bitmap PNM (only binary P5/P6)");
    }
    throw Error(path + ": unsupported format (PNG, binary PGM/PPM and 24-bit BMP are read)");
}

bool is_writable_image_path(const std::string &path) {
    const std::string ext = lower_extension(path);
    return ext == ".png" || ext == ".pgm" || ext == ".ppm" || ext == ".pnm" || ext == ".bmp";
}

void check_writable(const std::string &path, int channels) {
    const std::string ext = lower_extension(path);
    if (!is_writable_image_path(path)) {
        throw Error(path + ": unsupported output format '" + ext + "' (use .png, .pgm, .ppm, .pnm or .bmp)");
    }
    if (ext == ".pgm" && channels != 1) throw Error(path + ": a PGM file holds gray images only; use .ppm");
    if (ext == ".ppm" && channels != 3) throw Error(path + ": a PPM file holds RGB images only; use .pgm");
    const std::filesystem::path target(path);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw Error(path + ": cannot create output: no such folder");
    if (std::filesystem::is_directory(target, ec)) throw Error(path + ": is a directory");
}

void write_image(const std::string &path, const Image &image, std::vector<std::string> *notices) {
    const std::string ext = lower_extension(path);
    if (!is_writable_image_path(path)) {
        throw Error(path + ": unsupported output format '" + ext + "' (use .png, .pgm, .ppm, .pnm or .bmp)");
    }
    const std::filesystem::path target(path);
    const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
    std::string temp = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
    const int fd = mkstemp(temp.data());
    if (fd < 0) throw Error(path + ": cannot create output: " + std::strerror(errno));
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(fdopen(fd, "wb"), std::fclose);
    try {
        if (!file) {
            ::close(fd);
            throw Error(path + ": cannot open output: " + std::strerror(errno));
        }
        if (ext == ".png") encode_png(file.get(), path, image);
        else if (ext == ".bmp") encode_bmp(file.get(), image, path, notices);
        else encode_pnm(file.get(), path, image);
        if (std::fflush(file.get()) != 0 || std::ferror(file.get()) || ::fsync(fileno(file.get())) != 0) {
            throw Error(path + ": write failed: " + std::strerror(errno));
        }
        if (std::fclose(file.release()) != 0) throw Error(path + ": write failed: " + std::strerror(errno));
        const mode_t mask = ::umask(0);  // mkstemp made it 0600; give it the usual mode
        ::umask(mask);
        ::chmod(temp.c_str(), 0666 & ~mask);
        std::error_code ec;
        std::filesystem::rename(temp, target, ec);
        if (ec) throw Error(path + ": cannot replace output: " + ec.message());
    } catch (...) {
        file.reset();
        std::remove(temp.c_str());
        throw;
    }
}

}  // namespace filterlab
