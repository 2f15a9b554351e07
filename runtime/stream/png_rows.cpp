#include "png_rows.h"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "error.h"
#include "png_row_decoder.h"
#include "temp_files.h"

namespace filterlab::stream {

PngRowReader::PngRowReader(const std::string &path)
    : decoder_(std::make_unique<codecs::PngRowDecoder>(path, kMaxStreamedSide)),
      shape_{decoder_->width(), decoder_->height(), decoder_->channels()} {}

PngRowReader::~PngRowReader() = default;

void PngRowReader::finish() const {
    decoder_->skip_to(shape_.height);
    kept_ = {};
}

const std::vector<std::string> &PngRowReader::notices() const { return decoder_->notices(); }

void PngRowReader::read_rows(int first, int count, uint8_t *to) const {
    const std::size_t row = shape_.row_bytes();
    if (first < kept_first_ || first + count > shape_.height) throw Error("PNG rows must be read in order");
    // Rows kept from the last call (the band before's last rows: this band's halo).
    const int reused = std::max(0, std::min(first + count, kept_first_ + kept_count_) - first);
    if (reused > 0) std::memcpy(to, kept_.data() + (first - kept_first_) * row, reused * row);
    decoder_->skip_to(first);  // rows between the last call's and this one's
    if (decoder_->next_row() != first + reused) throw Error("PNG rows must be read in order");
    decoder_->read_rows(count - reused, to + reused * row);
    kept_.assign(to, to + count * row);
    most_kept_ = std::max(most_kept_, kept_.capacity());
    kept_first_ = first;
    kept_count_ = count;
}

// Everything libpng's longjmp may reach lives here, outside the frames that
// call setjmp (which hold no object with a destructor).
struct PngRowWriter::State {
    std::string output;
    FileShape shape;
    std::unique_ptr<TempFile> temp;
    std::FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    mutable int next_row = 0;
    char message[256] = "";
    ~State() {
        if (png) png_destroy_write_struct(&png, info ? &info : nullptr);
        if (file) std::fclose(file);
    }
};

namespace {

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
    auto *s = static_cast<PngRowWriter::State *>(png_get_error_ptr(png));
    std::snprintf(s->message, sizeof s->message, "%s", message);
    png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

bool write_header(PngRowWriter::State &s) {
    if (setjmp(png_jmpbuf(s.png))) return false;
    png_init_io(s.png, s.file);
    png_set_IHDR(s.png, s.info, s.shape.width, s.shape.height, 8,
                 s.shape.channels == 1 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(s.png, s.info);
    return true;
}

bool write_some(PngRowWriter::State &s, int count, const uint8_t *from) {
    if (setjmp(png_jmpbuf(s.png))) return false;
    for (int y = 0; y < count; y++) png_write_row(s.png, from + static_cast<std::size_t>(y) * s.shape.row_bytes());
    return true;
}

bool write_end(PngRowWriter::State &s) {
    if (setjmp(png_jmpbuf(s.png))) return false;
    png_write_end(s.png, nullptr);
    return true;
}

}  // namespace

bool is_png_output(const std::string &output) { return std::filesystem::path(output).extension() == ".png"; }

PngRowWriter::PngRowWriter(const std::string &output, const FileShape &shape) : state_(std::make_unique<State>()) {
    State &s = *state_;
    s.output = output;
    s.shape = shape;
    s.temp = std::make_unique<TempFile>(output);
    s.file = ::fdopen(s.temp->release_fd(), "wb");
    if (!s.file) throw Error(output + ": cannot write (" + std::strerror(errno) + ")");
    s.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
    if (s.png) s.info = png_create_info_struct(s.png);
    if (!s.png || !s.info) throw Error(output + ": cannot initialise libpng");
    if (!write_header(s)) throw Error(output + ": cannot write PNG: " + s.message);
}

PngRowWriter::~PngRowWriter() = default;

void PngRowWriter::write_rows(int first, int count, const uint8_t *from) const {
    State &s = *state_;
    if (first != s.next_row) throw Error(s.output + ": PNG rows must be written in order");
    if (!write_some(s, count, from)) throw Error(s.output + ": cannot write PNG: " + s.message);
    s.next_row += count;
}

void PngRowWriter::commit() {
    State &s = *state_;
    if (s.next_row != s.shape.height) throw Error(s.output + ": PNG incomplete");
    if (!write_end(s)) throw Error(s.output + ": cannot write PNG: " + s.message);
    std::FILE *file = s.file;
    s.file = nullptr;
    if (std::fclose(file) != 0) throw Error(s.output + ": cannot write (" + std::strerror(errno) + ")");
    s.temp->rename_onto_target();
}

}  // namespace filterlab::stream
