// Optional peers built as plugins: shared libraries that the registry loads at
// start-up, so that a binary runs (and says so) where a peer's libraries are
// missing, as OpenCV is on the GPU machine. A plugin exports
//
//     extern "C" void filterlab_plugin_variants(std::vector<filterlab::Variant> *variants,
//                                               std::string *description);
//
// and is looked for as libfilterlab_*.so in $FILTERLAB_PLUGIN_DIR, in plugins/
// beside the executable, and in the build's plugin folder.
#pragma once

#include <string>
#include <vector>

namespace filterlab {

struct PluginStatus {
    std::string name;
    bool loaded = false;
    std::string detail;  // its description, or why it did not load
};

// Loads the plugins once (all_variants() calls it) and reports on each one.
const std::vector<PluginStatus> &load_plugins();

}  // namespace filterlab
