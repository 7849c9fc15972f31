#include "burn/results.h"

#include "burn/options.h"
#include "burn/verbs/verbs_settings.h"
#include "common/error.h"
#include "common/guid.h"
#include "common/json_parse.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

namespace ibburn::burn {

const char* to_string(DirectionStatus s) {
  switch (s) {
    case DirectionStatus::Ok: return "ok";
    case DirectionStatus::Failed: return "failed";
    case DirectionStatus::Interrupted: return "interrupted";
    case DirectionStatus::Skipped: return "skipped";
  }
  return "?";
}

double gbps(std::uint64_t bytes, double seconds) {
  return seconds > 0 ? static_cast<double>(bytes) * 8.0 / seconds / 1e9 : 0.0;
}

namespace {
// "host001 mlx5_0:1", or "" when the rank never said where it runs.
std::string where(const std::vector<EndpointInfo>& endpoints, int rank) {
  if (rank < 0 || rank >= static_cast<int>(endpoints.size()) || endpoints[rank].host.empty()) return "";
  const auto& e = endpoints[rank];
  return e.endpoint.empty() ? e.host : e.host + " " + e.endpoint;
}
}  // namespace

std::string endpoint_name(const std::vector<EndpointInfo>& endpoints, int rank) {
  const std::string w = where(endpoints, rank);
  return w.empty() ? fmt::format("rank {}", rank) : w;
}

std::string direction_name(const std::vector<EndpointInfo>& endpoints, int from, int to) {
  // Ranks only while an end is not known: a technician holds hosts and HCAs (the ranks are in
  // the findings' details).
  const std::string a = where(endpoints, from), b = where(endpoints, to);
  if (a.empty() || b.empty()) return fmt::format("rank {} -> rank {}", from, to);
  return fmt::format("{} -> {}", a, b);
}

namespace {

// The reports by rank (a rank may have several: its own and the failures rank 0 adds), so a
// stage of 32k flows is merged in linear time.
using ReportsByRank = std::unordered_map<int, std::vector<const RankReport*>>;

const SideReport* find_side(const ReportsByRank& reports, int rank, std::uint32_t flow, int from, bool rx) {
  auto it = reports.find(rank);
  if (it == reports.end()) return nullptr;
  for (const RankReport* r : it->second)
    for (const auto& s : r->sides)
      if (s.flow == flow && s.from == from && s.rx == rx) return &s;
  return nullptr;
}

DirectionResult merge_direction(std::uint32_t flow, int from, int to, const ReportsByRank& reports,
                                const LostRanks& lost, bool partial, const std::set<int>& refused) {
  DirectionResult d;
  d.from = from;
  d.to = to;
  for (int rank : {to, from})
    if (refused.count(rank)) {
      d.status = DirectionStatus::Skipped;
      auto it = lost.find(rank);
      d.reason = "not run: " + (it != lost.end() ? it->second : "rank " + std::to_string(rank) + " refused");
      return d;
    }
  const SideReport* rx = find_side(reports, to, flow, from, true);
  const SideReport* tx = find_side(reports, from, flow, from, false);
  const SideReport* basis = rx ? rx : tx;
  if (basis) {
    d.bytes = basis->bytes;
    d.seconds = basis->seconds;
    d.samples_gbps = basis->samples_gbps;
    d.gbps = gbps(d.bytes, d.seconds);
  }
  for (const SideReport* s : {rx, tx}) {
    if (!s) continue;
    d.errors += s->errors;
    d.mismatches += s->mismatches;
  }
  std::vector<std::string> reasons;
  for (int rank : {to, from})
    if (auto it = lost.find(rank); it != lost.end()) reasons.push_back(it->second);
  for (const SideReport* s : {rx, tx})
    if (s && !s->failure.empty()) reasons.push_back(s->failure);
  if (!rx && !tx && reasons.empty() && !partial)
    reasons.push_back("no report from rank " + std::to_string(from) + " or rank " + std::to_string(to));
  if (!reasons.empty()) {
    d.status = DirectionStatus::Failed;
    std::string joined;
    for (const auto& r : reasons) joined += (joined.empty() ? "" : "; ") + r;
    d.reason = joined;
  } else if (partial) {
    d.status = DirectionStatus::Interrupted;
    d.reason = "stage cut short";
  }
  return d;
}

}  // namespace

StageResult merge_stage(int index, const Stage& stage, const std::vector<RankReport>& reports, const LostRanks& lost,
                        bool partial, const std::set<int>& refused) {
  StageResult out;
  out.index = index;
  out.name = stage.name;
  out.partial = partial;
  ReportsByRank by_rank;
  for (const auto& r : reports) by_rank[r.rank].push_back(&r);
  for (std::uint32_t id = 0; id < stage.flows.size(); ++id) {
    const Flow& f = stage.flows[id];
    FlowResult fr{id, f, {}};
    fr.directions.push_back(merge_direction(id, f.src, f.dst, by_rank, lost, partial, refused));
    if (f.bidirectional) fr.directions.push_back(merge_direction(id, f.dst, f.src, by_rank, lost, partial, refused));
    out.flows.push_back(std::move(fr));
  }
  return out;
}

nlohmann::json to_json(const DirectionResult& d) {
  nlohmann::json j{{"from", d.from},
                   {"to", d.to},
                   {"bytes", d.bytes},
                   {"seconds", d.seconds},
                   {"gbps", d.gbps},
                   {"samples_gbps", d.samples_gbps},
                   {"errors", d.errors},
                   {"mismatches", d.mismatches},
                   {"status", to_string(d.status)}};
  if (!d.reason.empty()) j["reason"] = d.reason;
  return j;
}

nlohmann::json to_json(const StageResult& s) {
  nlohmann::json flows = nlohmann::json::array();
  for (const auto& f : s.flows) {
    nlohmann::json dirs = nlohmann::json::array();
    for (const auto& d : f.directions) dirs.push_back(to_json(d));
    flows.push_back({{"id", f.id},
                     {"src", f.flow.src},
                     {"dst", f.flow.dst},
                     {"bidirectional", f.flow.bidirectional},
                     {"streams", f.flow.streams},
                     {"directions", dirs}});
  }
  return {{"type", "stage"}, {"index", s.index}, {"name", s.name}, {"partial", s.partial}, {"flows", flows}};
}

nlohmann::json to_json(const EndpointInfo& e) {
  nlohmann::json j{{"host", e.host},           {"endpoint", e.endpoint},
                   {"address", e.address},     {"link_layer", e.link_layer},
                   {"rate_gbps", e.rate_gbps}, {"gpu", e.gpu}};
  if (e.port_guid) j["port_guid"] = Guid{e.port_guid}.text();
  if (e.lid) j["lid"] = e.lid;
  return j;
}

StageResult stage_result_from_json(const JsonFields& f) {
  StageResult s;
  s.index = f.get<int>("index");
  s.name = f.get<std::string>("name");
  s.partial = f.get<bool>("partial");
  for (const auto& jf : f.objects("flows")) {
    FlowResult flow;
    flow.id = jf.get<std::uint32_t>("id");
    flow.flow = {jf.get<int>("src"), jf.get<int>("dst"), jf.get<bool>("bidirectional"), jf.get<int>("streams")};
    for (const auto& jd : jf.objects("directions")) {
      DirectionResult d;
      d.from = jd.get<int>("from");
      d.to = jd.get<int>("to");
      d.bytes = jd.get<std::uint64_t>("bytes");
      d.seconds = jd.get<double>("seconds");
      d.gbps = jd.get<double>("gbps");
      d.samples_gbps = jd.get<std::vector<double>>("samples_gbps");
      d.errors = jd.get<std::uint64_t>("errors");
      d.mismatches = jd.get<std::uint64_t>("mismatches");
      const auto status = jd.get<std::string>("status");
      if (status == "ok")
        d.status = DirectionStatus::Ok;
      else if (status == "failed")
        d.status = DirectionStatus::Failed;
      else if (status == "interrupted")
        d.status = DirectionStatus::Interrupted;
      else if (status == "skipped")
        d.status = DirectionStatus::Skipped;
      else
        jd.fail("status", "not ok, failed, interrupted or skipped: " + status);
      d.reason = jd.optional<std::string>("reason").value_or("");
      flow.directions.push_back(std::move(d));
    }
    s.flows.push_back(std::move(flow));
  }
  return s;
}

EndpointInfo endpoint_from_json(const JsonFields& f) {
  EndpointInfo e;
  e.host = f.get<std::string>("host");
  e.endpoint = f.get<std::string>("endpoint");
  e.address = f.get<std::string>("address");
  e.link_layer = f.get<std::string>("link_layer");
  e.rate_gbps = f.get<double>("rate_gbps");
  e.gpu = f.get<int>("gpu");
  if (auto guid = f.optional<std::string>("port_guid")) {
    auto g = Guid::parse(*guid);
    if (!g) f.fail("port_guid", "not a hex GUID: " + *guid);
    e.port_guid = g->value;
  }
  e.lid = f.optional<std::uint16_t>("lid").value_or(0);
  return e;
}

nlohmann::json to_json(const SideReport& s) {
  nlohmann::json j{{"flow", s.flow},
                   {"from", s.from},
                   {"to", s.to},
                   {"rx", s.rx},
                   {"bytes", s.bytes},
                   {"seconds", s.seconds},
                   {"samples_gbps", s.samples_gbps},
                   {"errors", s.errors},
                   {"mismatches", s.mismatches}};
  if (!s.failure.empty()) j["failure"] = s.failure;
  return j;
}

nlohmann::json run_header(const SessionOptions& o, const Plan& plan, const std::vector<EndpointInfo>& endpoints) {
  nlohmann::json h{{"type", "run"},
                   {"schema_version", kResultsSchemaVersion},
                   {"transport", to_string(o.transport)},
                   {"ranks", endpoints.size()},
                   {"duration_s", std::chrono::duration<double>(o.duration).count()},
                   {"threshold", o.threshold},
                   {"expect_gbps", o.expect_gbps},
                   {"verify", o.verify},
                   {"plan", to_json(plan)},
                   {"endpoints", nlohmann::json::array()}};
  for (const auto& e : endpoints) h["endpoints"].push_back(to_json(e));
  // The QoS class, partition and ACK timeout the run's QPs used.
  if (o.transport == TransportKind::Verbs) h["verbs_path"] = verbs::path_settings_json(o.extra);
  return h;
}

std::vector<EndpointInfo> read_run_endpoints(const std::string& text, const std::string& origin) {
  const auto fail = [&](const std::string& field, const std::string& what) {
    throw InputError(origin, 1, (field.empty() ? "" : field + ": ") + what);
  };
  const nlohmann::json j = parse_json(std::string_view(text).substr(0, text.find('\n')), origin);
  if (!j.is_object() || j.value("type", "") != "run")
    fail("", "not a burn's results.jsonl (its first line is the run header)");
  const JsonFields header(j, fail);
  // Files from before the version was written hold the same header: read as version 1.
  const int version = header.optional<int>("schema_version").value_or(1);
  if (version != kResultsSchemaVersion)
    fail("schema_version",
         fmt::format("results.jsonl schema version {}, this ibburn reads version {}", version, kResultsSchemaVersion));
  std::vector<EndpointInfo> out;
  for (const auto& e : header.objects("endpoints")) out.push_back(endpoint_from_json(e));
  return out;
}

}  // namespace ibburn::burn
