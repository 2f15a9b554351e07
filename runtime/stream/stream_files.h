// The files of a streamed run. It reads a binary PGM/PPM by offset
// (row_files.h) or a non-interlaced PNG row by row (png_rows.h), by their
// contents; it writes, by the extension, a PGM/PPM by offset or a PNG row by
// row, complete or absent.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "png_row_decoder.h"
#include "png_rows.h"
#include "row_files.h"

namespace filterlab::stream {

class InputFile {
public:
    // A PNG by its signature, else a PGM/PPM. Throws Error: the file cannot be
    // opened, is neither, is interlaced, or is bad.
    explicit InputFile(const std::string &path) {
        if (codecs::has_png_signature(path)) {
            png_ = std::make_unique<PngRowReader>(path);
        } else {
            pnm_ = std::make_unique<PnmRowReader>(path);
        }
    }
    const RowSource &source() const { return png_ ? static_cast<const RowSource &>(*png_) : *pnm_; }
    FileShape shape() const { return source().shape(); }
    // What reading it changed (a PNG's conversions to 8-bit gray or RGB), each
    // after the file's name, as the whole-image reader says them.
    std::vector<std::string> notices(const std::string &path) const {
        std::vector<std::string> said;
        if (png_) {
            for (const std::string &n : png_->notices()) said.push_back(path + ": " + n);
        }
        return said;
    }

private:
    std::unique_ptr<PnmRowReader> pnm_;
    std::unique_ptr<PngRowReader> png_;
};

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
