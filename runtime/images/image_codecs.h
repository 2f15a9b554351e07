// The decoders and encoders behind image_io.h, one file per format. Each
// decoder takes the whole file in memory (`name` only names it in errors)
// and allocates no more than the bytes it was given can describe: a header
// that promises more than the file holds is refused before any pixel memory
// is taken. Each encoder writes to an open stream and throws Error on failure.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "image.h"

namespace filterlab::codecs {

// PNG: 8-bit gray or RGB after the conversions listed in image_io.h.
Image decode_png(const std::string &name, const std::vector<uint8_t> &bytes, std::vector<std::string> *notices);
void encode_png(std::FILE *file, const std::string &name, const Image &image);

// Binary PGM (P5) and PPM (P6), maxval 255. `encode_pnm` writes P5 for gray
// and P6 for RGB.
Image decode_pnm(const std::string &name, const std::vector<uint8_t> &bytes);
// Where the samples of a PGM/PPM sit: its rows are at computable offsets,
// so bands of them can be read and written in place (MPI-IO,
// runtime/mpi/file_bands.h). `header_bytes` is the file's start (all of the
// header), `file_size` its length. Throws Error as decode_pnm does; a file
// streamed in bands (runtime/stream) may have sides up to `max_side`.
struct PnmLayout {
    int width = 0, height = 0, channels = 0;
    std::size_t raster_start = 0;
};
PnmLayout pnm_layout(const std::string &name, const std::vector<uint8_t> &header_bytes, std::size_t file_size,
                     long long max_side = kMaxSide);
std::string pnm_header(int width, int height, int channels);  // what encode_pnm writes first
void encode_pnm(std::FILE *file, const Image &image);

// Uncompressed 24-bit BMP. A gray image is stored with R = G = B.
Image decode_bmp(const std::string &name, const std::vector<uint8_t> &bytes);
void encode_bmp(std::FILE *file, const std::string &name, const Image &image);

// The largest ratio of inflated to deflated bytes (deflate's limit is 1032:1):
// a PNG's image data cannot decode to more than this many times its size.
constexpr uint64_t kMaxInflateRatio = 1032;

}  // namespace filterlab::codecs
