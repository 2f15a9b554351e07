// The file a streamed run writes, by its extension: a PGM/PPM by offset
// (row_files.h) or a PNG row by row (png_rows.h); complete or absent.
#pragma once

#include <memory>
#include <string>

#include "png_rows.h"
#include "row_files.h"

namespace filterlab::stream {

class OutputFile {
public:
    // Throws Error for another extension, or one that cannot hold the channels.
    OutputFile(const std::string &path, const FileShape &shape, FileWrites writes = FileWrites::mapped) {
        if (is_png_output(path)) {
            png_ = std::make_unique<PngRowWriter>(path, shape);
        } else if (is_pnm_output(path, shape.channels)) {
            pnm_ = std::make_unique<PnmRowWriter>(path, shape);
            pnm_->use(writes);
        } else {
            throw Error(path + ": a streamed output is a .png, or a .pgm, .ppm or .pnm that holds " +
                        std::to_string(shape.channels) + " channel(s)");
        }
    }
    const RowSink &sink() const { return png_ ? static_cast<const RowSink &>(*png_) : *pnm_; }
    void commit() const { png_ ? png_->commit() : pnm_->commit(); }

private:
    std::unique_ptr<PngRowWriter> png_;
    std::unique_ptr<PnmRowWriter> pnm_;
};

}  // namespace filterlab::stream
