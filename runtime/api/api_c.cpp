// The C ABI (filterlab/filterlab_c.h) over the C++ API.
#include "filterlab/filterlab_c.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include "filterlab/filterlab.h"

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

// "radius=2 sigma=1.5" into names and values; false on a malformed item.
bool parse_params(const char *text, std::map<std::string, double> &params, std::string &why) {
    std::istringstream items(text ? text : "");
    for (std::string item; items >> item;) {
        const auto eq = item.find('=');
        char *end = nullptr;
        const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
        const double v = std::strtod(value.c_str(), &end);
        if (eq == 0 || value.empty() || *end != '\0') {
            why = "parameter '" + item + "' is not NAME=VALUE";
            return false;
        }
        params[item.substr(0, eq)] = v;
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
        if (!parse_params(params, values, why)) return fail(why, message, message_size);
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
