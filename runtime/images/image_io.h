// Image files. Reading: PNG (libpng), binary PGM/PPM (P5/P6, maxval 255) and
// uncompressed 24-bit BMP (bottom-up or top-down). The format is recognised
// from the file's first bytes, not its name.
//
// PNG conversions, each reported as a notice: 16-bit samples keep their high
// byte; palette images become RGB; gray+alpha and RGBA drop the alpha channel;
// 1/2/4-bit gray is expanded to 8 bits. Everything else is refused.
//
// Memory is bounded by the file: a file of n bytes is read whole (n bytes),
// and no header may promise more than its bytes can hold: PNM and BMP need
// every sample byte present, a PNG chunk may not claim more bytes than remain,
// and a PNG's width x height must be reachable by inflating its image data
// (at most 1032 bytes per compressed byte). Pixel memory is then at most twice
// the decoded image (rows as they decode, then the planar image), and each
// ancillary PNG chunk at most 8 MiB.
//
// Writing: the format follows the extension (.png, .pgm, .ppm, .pnm, .bmp).
// A gray image written as BMP is stored as 24-bit with R = G = B (BMP has no
// 8-bit gray without a palette), so it reads back with 3 equal channels.
// Every file is written to a temporary name beside its target and renamed
// only once complete (see ImageOutputs): a failure or an interruption never
// leaves a partial image, a temporary, or a target touched.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "image.h"

namespace filterlab {

class TempFile;

// Throws Error with the path and the reason. Conversions made while reading
// are appended to `notices` when given.
Image read_image(const std::string &path, std::vector<std::string> *notices = nullptr);

// The same from bytes in memory; `name` names them in errors.
Image decode_image(const std::string &name, const std::vector<uint8_t> &bytes,
                   std::vector<std::string> *notices = nullptr);

// Several outputs of one command, all or nothing: add() writes each to its
// temporary; commit() renames them all once every one is complete. Until
// commit (an error, the destructor, a signal) the temporaries are removed and
// no target is touched: a command never deletes a file it did not create.
class ImageOutputs {
public:
    ImageOutputs();
    ~ImageOutputs();
    // Throws Error (unknown extension, a format that cannot hold the image, I/O).
    void add(const std::string &path, const Image &image, std::vector<std::string> *notices = nullptr);
    void commit();

private:
    std::vector<std::unique_ptr<TempFile>> pending_;
};

// Standard input and output (`run --input -`, `--output -`): all of stdin
// read as one file; the image written to stdout in `format` (png, pgm, ppm,
// pnm, bmp). Throw Error.
Image read_image_stdin(std::vector<std::string> *notices = nullptr);
void write_image_stdout(const std::string &format, const Image &image, std::vector<std::string> *notices = nullptr);

// One output: ImageOutputs with one add.
void write_image(const std::string &path, const Image &image, std::vector<std::string> *notices = nullptr);

// Throws Error unless an image of `channels` channels can be written to `path`
// (a known extension that can hold it, in an existing folder): for checking
// before any work is done.
void check_writable(const std::string &path, int channels);

// True when write_image knows the extension of `path`.
bool is_writable_image_path(const std::string &path);

}  // namespace filterlab
