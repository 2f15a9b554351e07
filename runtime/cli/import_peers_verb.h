// `filterlab import-peers`: its options and its run (import_peers.h does the
// work), declared here so that main.cpp names the verb in two lines.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "import_peers.h"

namespace filterlab::cli {

struct ImportPeersCli {
    ImportPeersOptions options;
    bool protocol = false;  // print the timing protocol instead
    CLI::App *verb = nullptr;
};

void add_import_peers_verb(CLI::App &app, ImportPeersCli &cli);
int import_peers_verb(ImportPeersCli &cli, const std::string &command_line);

}  // namespace filterlab::cli
