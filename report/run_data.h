#pragma once
// What one run directory holds, read from the JSON files the check commands write, so the
// Prometheus output, the history and the HTML page all start from the same data.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/results.h"
#include "burn/summary.h"
#include "common/finding.h"
#include "report/service_lists.h"

namespace ibburn::report {

struct HostCheck {
  std::string host;  // from the file name host-<HOST>.json
  std::vector<Finding> findings;
};

struct RunData {
  std::optional<burn::BurnSummary> burn;     // burn's summary.json
  std::optional<std::vector<Finding>> topo;  // topo check --json
  std::optional<nlohmann::json> counters;    // counters --json: {"ports","findings"}
  std::vector<HostCheck> hosts;              // host check --json, one file per host
  // results.jsonl or counters-before.json: a burn or `ibburn run` began here (with no summary
  // yet, the run stopped before its first one).
  bool began = false;
  std::optional<DrainList> drain;               // drain.txt (`ibburn run`)
  std::optional<std::vector<CableRow>> cables;  // cables.csv (`ibburn run`)
  // results.jsonl: the endpoints (index = rank) and every stage's flows with their per-second
  // samples; empty without the file.
  std::vector<burn::EndpointInfo> endpoints;
  std::vector<burn::StageResult> stages;
  std::vector<nlohmann::json> health;  // health-before.json, health-after.json (report/health_section.h)
};

// Reads DIR/summary.json (burn), DIR/topo.json, DIR/counters.json, DIR/host-*.json,
// DIR/health-{before,after}.json, DIR/results.jsonl, DIR/drain.txt and DIR/cables.csv; each is
// optional, but a directory with none of them nor results.jsonl holds no run (an InputError naming it). Bad JSON is an
// InputError naming the file.
RunData load_run_dir(const std::filesystem::path& dir);

std::vector<Finding> counters_findings(const RunData& run);

// The host part of a node name: "gpu001 mlx5_0" -> "gpu001" (node descriptions of CAs are
// "<hostname> <device>"); a name without a space is its own host.
std::string host_of(const std::string& node);

}  // namespace ibburn::report
