// `filterlab import-peers`: peer timings made outside this process (the
// Python peers of scripts/peers_python.py) written as a bench run directory
// by the bench's own code: its statistics of the samples, its measures, its
// results.csv, results.json and table.txt, its context of this machine. The
// timer outside follows the bench's protocol, which it reads from
// `filterlab import-peers --protocol` (timing_protocol_json).
//
// The samples file holds JSON lines (docs/measuring.md): one object per case,
//   {"filter": "median", "variant": "py_cv2_median_blur", "backend": "cpu",
//    "width": 97, "height": 97, "channels": 1, "params": ["size=5"],
//    "status": "ok", "note": "", "buffers": 4, "threads": 2,
//    "samples_us": [12.5, 12.7, ...]}
// (status one of results.csv's; samples_us the per-call microseconds, empty
// for a case not timed), and optionally lines {"context": {...}} whose keys
// go into results.json's context (the peers' library versions).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace filterlab {

struct ImportPeersOptions {
    std::string samples;  // the JSON lines file
    std::string out_root = "bench-runs";
    std::string command_line;
    bool quiet = false;
};

// Writes the run directory (under out_root, named peers-<UTC time>) and
// returns it; throws Error naming the line of the samples file that is wrong,
// and then leaves no directory.
std::string import_peers(const ImportPeersOptions &options);

// The bench's timing protocol for a timer outside it (bench_paths.h).
nlohmann::json peers_timing_protocol();

}  // namespace filterlab
