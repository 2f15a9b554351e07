// The C ABI (filterlab/filterlab_c.h) over the C++ API.
#include "filterlab/filterlab_c.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "error.h"
#include "filterlab/filterlab.h"
#include "filters.h"

namespace {

filterlab::ImageRef from_c(const filterlab_image &i) {
    filterlab::ImageRef r;
    r.data = i.data;
    r.width = i.width;
    r.height = i.height;
    r.channels = i.channels;
    r.row_pitch = i.row_pitch;
    r.layout = i.interleaved ? filterlab::Layout::interleaved : filterlab::Layout::planar;
    r.memory = i.on_device ? filterlab::Memory::cuda_device : filterlab::Memory::host;
    r.plane_pitch = i.plane_pitch;
    return r;
}

int fail(const std::string &why, char *message, size_t size) {
    if (message && size > 0) {
        const size_t n = why.size() < size - 1 ? why.size() : size - 1;
        std::memcpy(message, why.data(), n);
        message[n] = '\0';
    }
    return 1;
}

// "radius=2 sigma=1.5" into names and values with the CLI's parser
// (FilterInfo::parse_params: integers where the contract says so, decimal
// numbers written plainly, each name once, each value in range); false with
// `why` on a malformed item. An unknown filter is left to filterlab::run,
// which says so.
bool parse_params(const char *filter, const char *text, std::map<std::string, double> &params, std::string &why) {
    std::istringstream items(text ? text : "");
    std::vector<std::string> assignments;
    for (std::string item; items >> item;) assignments.push_back(item);
    for (const filterlab::FilterInfo &f : filterlab::all_filters()) {
        if (f.name != filter) continue;
        try {
            params = f.parse_params(assignments);
        } catch (const filterlab::Error &e) {
            why = e.what();
            return false;
        }
    }
    return true;
}

}  // namespace

extern "C" int filterlab_run(const char *filter, const filterlab_image *in, const filterlab_image *out,
                             const char *params, const char *variant, void *cuda_stream, char *message,
                             size_t message_size) {
    if (!filter || !in || !out) return fail("filterlab_run: filter, in and out must not be NULL", message, message_size);
    try {
        std::map<std::string, double> values;
        std::string why;
        if (!parse_params(filter, params, values, why)) return fail(why, message, message_size);
        filterlab::Options options;
        options.variant = variant ? variant : "";
        options.cuda_stream = cuda_stream;
        const filterlab::Outcome r = filterlab::run(filter, from_c(*in), from_c(*out), values, options);
        if (!r.ok) return fail(r.message, message, message_size);
        fail("", message, message_size);
        return 0;
    } catch (...) {  // no exception crosses the C ABI
        return fail("out of memory", message, message_size);
    }
}

extern "C" const char *filterlab_version(void) {
    static const std::string text = filterlab::version();
    return text.c_str();
}
