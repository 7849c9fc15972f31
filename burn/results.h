#pragma once
// What a stage measured, in the engine's words: per flow, per direction, the bytes, rate,
// per-second samples, errors and (when it failed) why. Built from the reports the ranks send
// to rank 0 (merge_stage) and written one line per stage to results.jsonl. Pure: no I/O.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/stage_plan.h"
#include "burn/transport.h"
#include "common/json_fields.h"

namespace ibburn::burn {

// One end's account of one direction of a flow ("tx" at the sender, "rx" at the receiver).
struct SideReport {
  std::uint32_t flow = 0;
  int from = 0;  // sending rank
  int to = 0;    // receiving rank
  bool rx = false;
  std::uint64_t bytes = 0;
  double seconds = 0;
  std::vector<double> samples_gbps;  // one per second of the stage
  std::uint64_t errors = 0;
  std::uint64_t mismatches = 0;
  std::string failure;  // "" = none
};

// Everything one rank says about a stage.
struct RankReport {
  int rank = 0;
  std::vector<SideReport> sides;
};

// Skipped: not run, because a rank was refused before stage 1 (its host failed the preflight).
enum class DirectionStatus { Ok, Failed, Interrupted, Skipped };
const char* to_string(DirectionStatus s);

struct DirectionResult {
  int from = 0;
  int to = 0;
  std::uint64_t bytes = 0;  // as counted by the receiver when it reported, else the sender
  double seconds = 0;
  double gbps = 0;
  std::vector<double> samples_gbps;
  std::uint64_t errors = 0;
  std::uint64_t mismatches = 0;
  DirectionStatus status = DirectionStatus::Ok;
  std::string reason;  // why it failed / was interrupted, naming the rank at fault
};

struct FlowResult {
  std::uint32_t id = 0;
  Flow flow;
  std::vector<DirectionResult> directions;  // src->dst, then dst->src when bidirectional
};

struct StageResult {
  int index = 0;  // 1-based
  std::string name;
  bool partial = false;  // cut short (interrupt, job abort): rates cover what ran
  std::vector<FlowResult> flows;
};

// Ranks that will not report, and why ("rank 3 (node7) died: control connection closed").
using LostRanks = std::map<int, std::string>;

// Builds a stage's results from the ranks' reports. A direction with no report from either
// end, or whose rank is lost, fails with the lost rank's reason; a failure either end saw
// fails it too (the receiver's reason first). Rates come from the receiver's count.
// Directions of `refused` ranks (also in `lost`) are skipped rather than failed.
StageResult merge_stage(int index, const Stage& stage, const std::vector<RankReport>& reports, const LostRanks& lost,
                        bool partial, const std::set<int>& refused = {});

nlohmann::json to_json(const DirectionResult& d);
nlohmann::json to_json(const StageResult& s);
// A results.jsonl stage line, read strictly: every field to_json writes is required but a
// direction's `reason` (the page's bandwidth over time reads them back).
StageResult stage_result_from_json(const JsonFields& f);
nlohmann::json to_json(const SideReport& s);
// The one codec of an endpoint, in the control protocol's Hello and results.jsonl's run header:
// every field but port_guid and lid (left out when 0) is required.
nlohmann::json to_json(const EndpointInfo& e);
EndpointInfo endpoint_from_json(const JsonFields& f);

double gbps(std::uint64_t bytes, double seconds);

// A direction as people name it: "node0001 mlx5_0:1 -> node0002 mlx5_3:1";
// "rank 0 -> rank 1" while the ranks' endpoints are unknown.
std::string direction_name(const std::vector<EndpointInfo>& endpoints, int from, int to);
// An endpoint as people name it: "node0001 mlx5_0:1"; "rank 7" while its endpoint is unknown.
std::string endpoint_name(const std::vector<EndpointInfo>& endpoints, int rank);

struct SessionOptions;  // burn/options.h
// results.jsonl's first line: the run's settings, plan and endpoints (index = rank), and the
// file's schema_version (docs/burn.md, "results.jsonl").
constexpr int kResultsSchemaVersion = 1;
nlohmann::json run_header(const SessionOptions& o, const Plan& plan, const std::vector<EndpointInfo>& endpoints);
// The endpoints of a results.jsonl's run header (`text`: the file or its first line), read
// strictly: InputError naming `origin`, line 1 and the field for a missing or mistyped field,
// and for a schema_version this ibburn does not read. A header without one predates it and is
// read as version 1 (the same fields).
std::vector<EndpointInfo> read_run_endpoints(const std::string& text, const std::string& origin);

}  // namespace ibburn::burn
