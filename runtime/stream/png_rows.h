// PNGs read and written row by row, for streaming: rows come in order (the
// reader and writer stages walk the bands in order; `sequential()` keeps each
// to one thread), each decompressed or compressed as it comes, so memory stays
// a band's. Written to a temporary beside the output, renamed by commit()
// once complete.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "row_files.h"

namespace filterlab::codecs {
class PngRowDecoder;
}

namespace filterlab::stream {

// A non-interlaced PNG (codecs::is_sequential_png), decoded as its rows are
// asked. The rows of the last call are kept, so the next band's halo rows,
// which it read already, are not decoded again: memory is a band's.
class PngRowReader : public RowSource {
public:
    explicit PngRowReader(const std::string &path);  // sides up to kMaxStreamedSide; throws Error
    ~PngRowReader() override;
    PngRowReader(const PngRowReader &) = delete;
    PngRowReader &operator=(const PngRowReader &) = delete;
    FileShape shape() const override { return shape_; }
    bool sequential() const override { return true; }
    // Rows [first, first + count): first at or after the last call's first.
    void read_rows(int first, int count, uint8_t *to) const override;
    // Decodes the rows left and the file's end, so a damaged tail fails here
    // as it fails the whole-image reader.
    void finish() const override;
    std::size_t held_bytes() const override { return most_kept_; }
    const std::vector<std::string> &notices() const;  // conversions made (16-bit, palette, alpha...)

private:
    std::unique_ptr<codecs::PngRowDecoder> decoder_;
    FileShape shape_;
    mutable std::vector<uint8_t> kept_;  // the last call's rows
    mutable int kept_first_ = 0, kept_count_ = 0;
    mutable std::size_t most_kept_ = 0;
};

class PngRowWriter : public RowSink {
public:
    PngRowWriter(const std::string &output, const FileShape &shape);  // throws Error
    ~PngRowWriter() override;
    PngRowWriter(const PngRowWriter &) = delete;
    PngRowWriter &operator=(const PngRowWriter &) = delete;
    bool sequential() const override { return true; }
    // Rows [first, first + count), first being the next row not yet written.
    void write_rows(int first, int count, const uint8_t *from) const override;
    void commit();  // the PNG's end, the file closed and checked, then the rename
    struct State;  // libpng's, kept out of this header

private:
    std::unique_ptr<State> state_;
};

// True when `output` names a .png.
bool is_png_output(const std::string &output);

}  // namespace filterlab::stream
