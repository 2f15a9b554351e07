// A PNG written row by row, for streaming: rows must come in order (the
// writer stage walks the bands in order; `sequential()` keeps it to one
// thread), each compressed as it comes, so memory stays a row's. Written to a
// temporary beside the output, renamed by commit() once complete.
#pragma once

#include <memory>
#include <string>

#include "row_files.h"

namespace filterlab::stream {

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
