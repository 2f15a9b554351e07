// Optional peers built as plugins: shared libraries that main loads at
// start-up (load_plugins) before using the registry, so that a binary runs (and says so) where a peer's libraries are
// missing, as OpenCV is on the GPU machine. A plugin exports
//
//     extern "C" void filterlab_plugin_variants(std::vector<filterlab::Variant> *variants,
//                                               std::string *description);
//
//     extern "C" std::size_t filterlab_plugin_abi();  // returns plugin_abi()
//
// and is looked for as libfilterlab_*.so in $FILTERLAB_PLUGIN_DIR, in plugins/
// beside the executable, and in the build's plugin folder. A plugin built
// against another layout of Variant is refused, not called.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace filterlab {

// Changes whenever the Variant that plugins fill in changes layout.
constexpr std::size_t kPluginAbiRevision = 2;
std::size_t plugin_abi();  // defined inline below, so a plugin computes its own

struct PluginStatus {
    std::string name;
    bool loaded = false;
    std::string detail;  // its description, or why it did not load
};

}  // namespace filterlab

#include "registry.h"

namespace filterlab {

inline std::size_t plugin_abi() { return sizeof(Variant) * 100 + kPluginAbiRevision; }

// Loads the plugins once (main calls it first; later calls return the same
// report) and reports on each one.
const std::vector<PluginStatus> &load_plugins();

}  // namespace filterlab
