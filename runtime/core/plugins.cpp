#include "plugins.h"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "registry.h"

namespace filterlab {
namespace {

using PluginEntry = void (*)(std::vector<Variant> *, std::string *);

std::vector<std::filesystem::path> plugin_dirs() {
    std::vector<std::filesystem::path> dirs;
    if (const char *env = std::getenv("FILTERLAB_PLUGIN_DIR")) dirs.emplace_back(env);
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        dirs.push_back(exe.parent_path() / "plugins");                                   // the build
        dirs.push_back(exe.parent_path().parent_path() / "lib" / "filterlab" / "plugins");  // an install
    }
    dirs.emplace_back(FILTERLAB_PLUGIN_BUILD_DIR);
    return dirs;
}

std::vector<PluginStatus> load_all() {
    std::vector<PluginStatus> status;
    std::vector<std::string> seen;
    for (const auto &dir : plugin_dirs()) {
        std::error_code ec;
        for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::string file = entry.path().filename().string();
            if (file.rfind("libfilterlab_", 0) != 0 || entry.path().extension() != ".so") continue;
            if (std::find(seen.begin(), seen.end(), file) != seen.end()) continue;  // the first folder wins
            seen.push_back(file);
            PluginStatus s;
            s.name = file.substr(13, file.size() - 16);
            void *handle = dlopen(entry.path().c_str(), RTLD_NOW | RTLD_LOCAL);
            auto entry_point = handle ? reinterpret_cast<PluginEntry>(dlsym(handle, "filterlab_plugin_variants")) : nullptr;
            auto abi = handle ? reinterpret_cast<std::size_t (*)()>(dlsym(handle, "filterlab_plugin_abi")) : nullptr;
            if (!entry_point || !abi) {
                const char *why = dlerror();
                s.detail = std::string("not loaded: ") + (why ? why : "no entry point");
            } else if (abi() != plugin_abi()) {
                s.detail = "not loaded: built for another version of FilterLab (rebuild it with this one)";
            } else {
                std::vector<Variant> variants;
                entry_point(&variants, &s.detail);
                for (auto &v : variants) {
                    if (is_registered(v.filter, v.name)) {
                        s.detail += "; " + v.filter + "/" + v.name + " skipped: the name is taken";
                        continue;
                    }
                    register_variant(std::move(v));
                }
                s.loaded = true;
            }
            status.push_back(s);
        }
    }
    return status;
}

}  // namespace

const std::vector<PluginStatus> &load_plugins() {
    static const std::vector<PluginStatus> status = load_all();
    return status;
}

}  // namespace filterlab
