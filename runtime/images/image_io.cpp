#include "image_io.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "error.h"
#include "image_codecs.h"
#include "temp_files.h"

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
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw Error(path + ": cannot open: " + ec.message());
    std::vector<uint8_t> bytes(size);  // exactly the file: no growth by doubling
    in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(size));
    if (in.bad() || in.gcount() != static_cast<std::streamsize>(size)) throw Error(path + ": read error");
    return bytes;
}

void check_format(const std::string &path, int channels) {
    const std::string ext = lower_extension(path);
    if (!is_writable_image_path(path)) {
        throw Error(path + ": unsupported output format '" + ext + "' (use .png, .pgm, .ppm, .pnm or .bmp)");
    }
    if (ext == ".pgm" && channels != 1) throw Error(path + ": a PGM file holds gray images only; use .ppm");
    if (ext == ".ppm" && channels != 3) throw Error(path + ": a PPM file holds RGB images only; use .pgm");
}

void encode(std::FILE *file, const std::string &path, const Image &image, std::vector<std::string> *notices) {
    const std::string ext = lower_extension(path);
    if (ext == ".png") {
        codecs::encode_png(file, path, image);
    } else if (ext == ".bmp") {
        if (image.channels() == 1 && notices) notices->push_back(path + ": gray image stored as 24-bit BMP (R = G = B)");
        codecs::encode_bmp(file, path, image);
    } else {
        codecs::encode_pnm(file, image);
    }
}

}  // namespace

Image decode_image(const std::string &name, const std::vector<uint8_t> &bytes, std::vector<std::string> *notices) {
    static const uint8_t png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (bytes.size() >= 8 && std::equal(png_magic, png_magic + 8, bytes.begin())) {
        return codecs::decode_png(name, bytes, notices);
    }
    if (bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6')) {
        return codecs::decode_pnm(name, bytes);
    }
    if (bytes.size() >= 2 && bytes[0] == 'B' && bytes[1] == 'M') return codecs::decode_bmp(name, bytes);
    if (bytes.empty()) throw Error(name + ": empty file");
    if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '4') {
        throw Error(name + ": unsupported format: ASCII/bitmap PNM (only binary P5/P6)");
    }
    throw Error(name + ": unsupported format (PNG, binary PGM/PPM and 24-bit BMP are read)");
}

Image read_image(const std::string &path, std::vector<std::string> *notices) {
    return decode_image(path, read_file(path), notices);
}

bool is_writable_image_path(const std::string &path) {
    const std::string ext = lower_extension(path);
    return ext == ".png" || ext == ".pgm" || ext == ".ppm" || ext == ".pnm" || ext == ".bmp";
}

void check_writable(const std::string &path, int channels) {
    check_format(path, channels);
    check_output_folder(path);
}

ImageOutputs::ImageOutputs() = default;
ImageOutputs::~ImageOutputs() = default;  // uncommitted temporaries are removed

void ImageOutputs::add(const std::string &path, const Image &image, std::vector<std::string> *notices) {
    check_format(path, image.channels());
    std::error_code ec;
    const auto same_file = std::filesystem::weakly_canonical(path, ec);
    for (const auto &p : pending_) {
        if (p->target() == path || std::filesystem::weakly_canonical(p->target(), ec) == same_file) {
            throw Error(path + ": named twice as an output");
        }
    }
    auto temp = std::make_unique<TempFile>(path);
    std::FILE *file = fdopen(temp->fd(), "wb");
    if (!file) throw Error(path + ": cannot open output: " + std::strerror(errno));
    temp->release_fd();
    try {
        try {
            encode(file, path, image, notices);
        } catch (const Error &) {
            if (std::ferror(file)) throw Error(path + ": write failed: " + std::strerror(errno));
            throw;
        }
        if (std::fflush(file) != 0 || std::ferror(file) || ::fsync(fileno(file)) != 0) {
            throw Error(path + ": write failed: " + std::strerror(errno));
        }
    } catch (...) {
        std::fclose(file);
        throw;
    }
    if (std::fclose(file) != 0) throw Error(path + ": write failed: " + std::strerror(errno));
    pending_.push_back(std::move(temp));
}

void ImageOutputs::commit() {
    std::vector<TempFile *> files;
    for (auto &temp : pending_) files.push_back(temp.get());
    rename_all_onto_targets(files);
    pending_.clear();
}

Image read_image_stdin(std::vector<std::string> *notices) {
    std::vector<uint8_t> bytes;
    uint8_t chunk[1 << 16];
    for (;;) {
        const ssize_t n = ::read(0, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw Error(std::string("<stdin>: read error: ") + std::strerror(errno));
        if (n == 0) break;
        bytes.insert(bytes.end(), chunk, chunk + n);
    }
    return decode_image("<stdin>", bytes, notices);
}

void write_image_stdout(const std::string &format, const Image &image, std::vector<std::string> *notices) {
    const std::string name = "<stdout>." + format;
    check_format(name, image.channels());
    encode(stdout, name, image, notices);
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) throw Error(std::string("<stdout>: write failed: ") + std::strerror(errno));
}

void write_image(const std::string &path, const Image &image, std::vector<std::string> *notices) {
    ImageOutputs outputs;
    outputs.add(path, image, notices);
    outputs.commit();
}

}  // namespace filterlab
