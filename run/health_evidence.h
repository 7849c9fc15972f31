#pragma once
// The vendor's captures of the fabric around the burn (`ibburn run --ibdiagnet DIR`, taken
// before it, and `--ibdiagnet-after DIR`), judged by `ibburn health`'s checks and merged into
// the run's one verdict (docs/run.md, "Switch and cable health").
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "burn/summary.h"
#include "common/finding.h"
#include "run/service_actions.h"
#include "topo/fabric.h"

namespace ibburn::run {

// Each cable module's part (health::part_text) by the node GUID and port it is plugged into.
using ModuleParts = std::map<std::pair<uint64_t, int>, std::string>;

struct JudgedCapture {
  std::vector<Finding> findings;  // each with details.capture = "before" or "after"
  ModuleParts parts;
};

// Reads and judges the capture (files or a directory, as `ibburn health` takes them; nodes
// named by `node_name_map` when not empty), writes `<run_dir>/health-<when>.json` (its
// findings, sources and the page's data: health/health_data.h). Throws InputError on a bad
// capture.
JudgedCapture judge_health_capture(const std::string& input, const std::string& when, const std::string& node_name_map,
                                   const std::string& run_dir);

// Pure. The findings of the capture after the burn that the one before it did not already
// tell (the same kind and message: a firmware mix seen twice is one cause), marked in their
// message as seen after the burn.
std::vector<Finding> new_after_burn(const std::vector<Finding>& before, std::vector<Finding> after);

// A capture's finding: about the fabric's switches and modules, fixed there, never by
// draining a host.
bool from_health_capture(const Finding& f);

// Pure. Names each end's module in `cables` where `parts` knows its port (the cables' node
// names looked up in `fabric`), so a replacement ticket says which transceiver to bring.
void name_module_parts(std::vector<CableAction>& cables, const topo::Fabric& fabric, const ModuleParts& parts);

// Adds `findings` to the summary's (worst first); any of warning or worse fails the run.
void add_findings(burn::BurnSummary& doc, const std::vector<Finding>& findings);

// The job's captures: the one before the burn, then the one after it.
class HealthCaptures {
 public:
  HealthCaptures(std::string node_name_map, std::string run_dir)
      : names_(std::move(node_name_map)), dir_(std::move(run_dir)) {}
  // Judges a capture ("before" or "after"); returns the step's outcome for the job's log.
  std::string judge(const std::string& input, const std::string& when);
  const std::vector<Finding>& findings() const { return findings_; }  // both captures'
  const std::vector<Finding>& after_burn() const { return after_; }   // what only the later one told
  // Both captures' modules, the later one's where they differ.
  void name_parts(std::vector<CableAction>& cables, const topo::Fabric& fabric) const {
    name_module_parts(cables, fabric, parts_);
  }

 private:
  std::string names_, dir_;
  std::vector<Finding> findings_, after_;
  ModuleParts parts_;
};

}  // namespace ibburn::run
