#include "file_bands.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "bands.h"
#include "harness.h"
#include "image_codecs.h"
#include "image_io.h"
#include "temp_files.h"
#include "world.h"

namespace filterlab::mpi {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kHeaderBytes = 4096;  // more than any PGM/PPM header needs, comments included

// Agreed on every rank: throws AgreedError when the MPI call that returned
// `code` failed on any rank.
void agree_on(int code, const std::string &what) {
    world().collective([&] {
        if (code == MPI_SUCCESS) return;
        char text[MPI_MAX_ERROR_STRING];
        int length = 0;
        MPI_Error_string(code, text, &length);
        throw Error(what + ": " + std::string(text, static_cast<std::size_t>(length)));
    });
}

// The samples of a file's header: width, height, channels, where the rows start.
codecs::PnmLayout read_layout(const std::string &path) {
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) throw Error(path + ": " + ec.message());
    std::ifstream file(path, std::ios::binary);
    std::vector<uint8_t> head(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kHeaderBytes)));
    if (!file.read(reinterpret_cast<char *>(head.data()), static_cast<std::streamsize>(head.size()))) {
        throw Error(path + ": cannot read (" + std::strerror(errno) + ")");
    }
    return codecs::pnm_layout(path, head, static_cast<std::size_t>(size));
}

// One row of `bytes` bytes, as an MPI type: a band is a count of rows, so
// no count passes INT_MAX however large the image.
class RowType {
public:
    explicit RowType(int bytes) {
        MPI_Type_contiguous(bytes, MPI_BYTE, &type_);
        MPI_Type_commit(&type_);
    }
    ~RowType() { MPI_Type_free(&type_); }
    RowType(const RowType &) = delete;
    RowType &operator=(const RowType &) = delete;
    MPI_Datatype get() const { return type_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

// Rows [first, end) of the file, interleaved as stored, on every rank at
// once (an idle rank reads none); returned planar.
Image read_band(const std::string &path, const codecs::PnmLayout &layout, int first, int end) {
    const int row_bytes = layout.width * layout.channels;
    std::vector<uint8_t> rows(static_cast<std::size_t>(end - first) * row_bytes);
    MPI_File file;
    agree_on(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file), path);
    const RowType row(row_bytes);
    const MPI_Offset at = static_cast<MPI_Offset>(layout.raster_start) + static_cast<MPI_Offset>(first) * row_bytes;
    const int read = MPI_File_read_at_all(file, at, rows.data(), end - first, row.get(), MPI_STATUS_IGNORE);
    MPI_File_close(&file);
    agree_on(read, path + ": reading rows " + std::to_string(first) + ".." + std::to_string(end));
    return end > first ? from_interleaved(rows.data(), layout.width, end - first, layout.channels) : Image();
}

// Rows [first, first + count) of `band`, interleaved as a PGM/PPM stores them.
std::vector<uint8_t> interleaved_rows(const Image &band, int first, int count) {
    const int width = band.width(), channels = band.channels();
    std::vector<uint8_t> out(static_cast<std::size_t>(count) * width * channels);
    for (int y = 0; y < count; y++)
        for (int c = 0; c < channels; c++) {
            const uint8_t *row = band.row(first + y, c);
            uint8_t *to = out.data() + static_cast<std::size_t>(y) * width * channels + c;
            for (int x = 0; x < width; x++) to[static_cast<std::size_t>(x) * channels] = row[x];
        }
    return out;
}

// Rank 0's temporary beside `output`, holding the header; its path on every rank.
std::string make_temporary(const std::string &output, const std::string &header, std::unique_ptr<TempFile> &temp) {
    std::string path;
    world().collective([&] {
        if (!world().root()) return;
        temp = std::make_unique<TempFile>(output);
        if (::write(temp->fd(), header.data(), header.size()) != static_cast<ssize_t>(header.size())) {
            throw Error(output + ": cannot write (" + std::strerror(errno) + ")");
        }
        path = temp->path();
    });
    int length = static_cast<int>(path.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    path.resize(static_cast<std::size_t>(length));
    MPI_Bcast(path.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return path;
}

// Every rank's own output rows into the temporary at their offsets.
void write_band(const std::string &temp_path, std::size_t header_bytes, const std::vector<uint8_t> &rows,
                int out_first, int out_rows, int row_bytes, const std::string &output) {
    MPI_File file;
    agree_on(MPI_File_open(MPI_COMM_WORLD, temp_path.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file), output);
    const RowType row(row_bytes);
    const MPI_Offset at = static_cast<MPI_Offset>(header_bytes) + static_cast<MPI_Offset>(out_first) * row_bytes;
    const int wrote = MPI_File_write_at_all(file, at, rows.data(), out_rows, row.get(), MPI_STATUS_IGNORE);
    const int closed = MPI_File_close(&file);
    agree_on(wrote != MPI_SUCCESS ? wrote : closed, output + ": writing");
}

}  // namespace

bool can_run_in_file_bands(const std::string &input, const std::string &output) {
    int fits = 0;
    if (world().root()) {
        std::ifstream file(input, std::ios::binary);
        char magic[2] = {};
        const std::string ext = fs::path(output).extension().string();
        if (file.read(magic, 2) && magic[0] == 'P' && (magic[1] == '5' || magic[1] == '6')) {
            const int channels = magic[1] == '5' ? 1 : 3;
            fits = ext == ".pnm" || (ext == ".pgm" && channels == 1) || (ext == ".ppm" && channels == 3);
        }
    }
    MPI_Bcast(&fits, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return fits != 0;
}

FileBandShapes run_file_in_bands(const Variant &variant, const std::string &input, const std::string &output,
                                 const ParamValues &params, FileBandTimes &times) {
    const World &w = world();
    const FilterInfo &filter = filter_info(variant.filter);
    codecs::PnmLayout layout;
    w.collective([&] {
        if (!w.root()) return;
        layout = read_layout(input);
        check_writable(output, layout.channels);  // before the work, as for one process
    });
    std::array<long long, 4> shape{layout.width, layout.height, layout.channels,
                                   static_cast<long long>(layout.raster_start)};
    MPI_Bcast(shape.data(), 4, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    layout = {static_cast<int>(shape[0]), static_cast<int>(shape[1]), static_cast<int>(shape[2]),
              static_cast<std::size_t>(shape[3])};
    const ImageBands split = split_image(filter, params, layout.width, layout.height, w.size());
    const int out_width = split.out_width, out_height = split.out_height;
    const Band &me = split.bands[w.rank()];
    times.bands = split.with_rows();

    PhaseClock clock;
    const Image band = read_band(input, layout, me.in_first, me.out_rows > 0 ? me.in_end : me.in_first);
    clock.lap(times.read);
    std::vector<uint8_t> rows;
    w.collective([&] {
        if (me.out_rows > 0) rows = interleaved_rows(run_variant(variant, band, params), me.keep_first(), me.out_rows);
    });
    clock.lap(times.filter);
    const std::string header = codecs::pnm_header(out_width, out_height, layout.channels);
    std::unique_ptr<TempFile> temp;
    const std::string temp_path = make_temporary(output, header, temp);
    write_band(temp_path, header.size(), rows, me.out_first, me.out_rows, out_width * layout.channels, output);
    w.collective([&] {
        if (w.root()) rename_all_onto_targets({temp.get()});
    });
    clock.lap(times.write);
    w.keep_slowest({&times.read, &times.filter, &times.write});
    return {layout.width, layout.height, layout.channels, out_width, out_height};
}

}  // namespace filterlab::mpi
