// What the image-file tests share (test_image_io.cpp, test_image_io_errors.cpp):
// one scratch folder per test process, and writing a file's bytes as given.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
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

inline void spit(const std::filesystem::path &p, const std::string &text) {
    spit(p, std::vector<uint8_t>(text.begin(), text.end()));
}

}  // namespace image_io_test
