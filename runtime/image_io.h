// Image files. Reading: PNG (libpng), binary PGM/PPM (P5/P6, maxval 255) and
// uncompressed 24-bit BMP (bottom-up or top-down). The format is recognised
// from the file's first bytes, not its name.
//
// PNG conversions, each reported as a notice: 16-bit samples keep their high
// byte; palette images become RGB; gray+alpha and RGBA drop the alpha channel;
// 1/2/4-bit gray is expanded to 8 bits. Everything else is refused.
//
// Writing: the format follows the extension (.png, .pgm, .ppm, .pnm, .bmp).
// A gray image written as BMP is stored as 24-bit with R = G = B (BMP has no
// 8-bit gray without a palette), so it reads back with 3 equal channels.
// The file is written to a temporary name beside the target and renamed when
// complete: a failure never leaves a partial image.
#pragma once

#include <string>
#include <vector>

#include "image.h"

namespace filterlab {

// Throws Error with the path and the reason. Conversions made while reading
// are appended to `notices` when given.
Image read_image(const std::string &path, std::vector<std::string> *notices = nullptr);

// Throws Error (unknown extension, a format that cannot hold the image, I/O).
void write_image(const std::string &path, const Image &image, std::vector<std::string> *notices = nullptr);

// Throws Error unless an image of `channels` channels can be written to `path`
// (a known extension that can hold it, in an existing folder): for checking
// before any work is done.
void check_writable(const std::string &path, int channels);

// True when write_image knows the extension of `path`.
bool is_writable_image_path(const std::string &path);

}  // namespace filterlab
