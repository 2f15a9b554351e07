#include "import_peers_verb.h"

#include <fmt/format.h>
#include <iostream>

#include "commands.h"
#include "error.h"

namespace filterlab::cli {

void add_import_peers_verb(CLI::App &app, ImportPeersCli &cli) {
    auto *v = cli.verb = app.add_subcommand(
        "import-peers", "Write peer timings made outside filterlab (scripts/peers_python.py's samples, JSON lines) as "
                        "a bench run directory: the bench's statistics, schema and context of this machine");
    v->add_option("samples", cli.options.samples, "The samples file (JSON lines; docs/measuring.md)");
    v->add_flag("--protocol", cli.protocol, "Print the bench's timing protocol as JSON (for the timer outside)");
    v->add_option("--out", cli.options.out_root, "Folder under which the run gets a new directory")
        ->default_val("bench-runs");
    v->add_flag("--quiet,-q", cli.options.quiet, "No progress on stderr");
}

int import_peers_verb(ImportPeersCli &cli, const std::string &command_line) {
    if (cli.protocol) {
        std::cout << peers_timing_protocol().dump(2) << "\n";
        return kExitOk;
    }
    if (cli.options.samples.empty()) throw Error("import-peers: give a samples file, or --protocol");
    cli.options.command_line = command_line;
    fmt::print("run: {}\n", import_peers(cli.options));
    return kExitOk;
}

}  // namespace filterlab::cli
