#include "report/run_data.h"

#include <algorithm>
#include <sstream>

#include "common/error.h"
#include "common/file_io.h"
#include "common/json_parse.h"

namespace ibburn::report {
namespace fs = std::filesystem;

namespace {
nlohmann::json parse_file(const fs::path& p) { return parse_json(read_file(p), p.string()); }

std::vector<Finding> findings_of(const nlohmann::json& j, const fs::path& p) {
  std::vector<Finding> out;
  try {
    for (const auto& f : j.value("findings", nlohmann::json::array())) out.push_back(finding_from_json(f));
  } catch (const std::exception& e) {
    throw InputError(p.string(), 0, std::string("bad finding: ") + e.what());
  }
  return out;
}
// results.jsonl: the run's header (endpoints), then one line per finished stage; both read
// by burn's strict codecs.
void read_results(const fs::path& p, RunData& run) {
  const std::string text = read_file(p);
  run.endpoints = burn::read_run_endpoints(text, p.string());
  std::istringstream in(text);
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    if (++lineno == 1 || line.empty()) continue;
    const auto fail = [&](const std::string& field, const std::string& what) {
      throw InputError(p.string(), lineno, (field.empty() ? "" : field + ": ") + what);
    };
    const nlohmann::json j = parse_json(line, p.string(), lineno);
    if (j.is_object() && j.value("type", "") == "stage") run.stages.push_back(burn::stage_result_from_json({j, fail}));
  }
}
}  // namespace

RunData load_run_dir(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir.string(), 0, "not a directory");
  RunData run;
  if (fs::exists(dir / "summary.json")) run.burn = burn::load_summary((dir / "summary.json").string());
  if (fs::exists(dir / "topo.json")) run.topo = findings_of(parse_file(dir / "topo.json"), dir / "topo.json");
  if (fs::exists(dir / "counters.json")) {
    run.counters = parse_file(dir / "counters.json");
    findings_of(*run.counters, dir / "counters.json");  // validates early, naming the file
  }
  std::vector<fs::path> host_files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("host-") && name.ends_with(".json")) host_files.push_back(e.path());
  }
  std::sort(host_files.begin(), host_files.end());
  for (const auto& p : host_files) {
    const std::string name = p.filename().string();
    run.hosts.push_back({name.substr(5, name.size() - 10), findings_of(parse_file(p), p)});
  }
  run.began = fs::exists(dir / "results.jsonl") || fs::exists(dir / "counters-before.json");
  if (run.began && fs::exists(dir / "results.jsonl")) read_results(dir / "results.jsonl", run);
  if (fs::exists(dir / "drain.txt")) run.drain = parse_drain(read_file(dir / "drain.txt"));
  if (fs::exists(dir / "cables.csv"))
    run.cables = parse_cables_csv(read_file(dir / "cables.csv"), (dir / "cables.csv").string());
  for (const char* name : {"health-before.json", "health-after.json"})
    if (fs::exists(dir / name)) run.health.push_back(parse_file(dir / name));
  if (!run.burn && !run.topo && !run.counters && run.hosts.empty() && !run.began)
    throw InputError(dir.string(), 0,
                     "no run here: none of summary.json, results.jsonl, topo.json, counters.json, host-*.json");
  return run;
}

std::vector<Finding> counters_findings(const RunData& run) {
  std::vector<Finding> out;
  if (!run.counters) return out;
  for (const auto& f : run.counters->value("findings", nlohmann::json::array())) out.push_back(finding_from_json(f));
  return out;
}

std::string host_of(const std::string& node) {
  const auto sp = node.find(' ');
  return sp == std::string::npos ? node : node.substr(0, sp);
}

}  // namespace ibburn::report
