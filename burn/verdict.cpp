#include "burn/verdict.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/finding_details.h"

namespace ibburn::burn {

namespace {

bool bad(Verdict v) { return v == Verdict::Slow || v == Verdict::Failed; }
bool judged(Verdict v) { return v == Verdict::Pass || bad(v); }

double endpoint_rate(const std::vector<EndpointInfo>& eps, int rank, const VerdictOptions& o) {
  if (o.expect_gbps > 0) return o.expect_gbps;
  return rank >= 0 && rank < static_cast<int>(eps.size()) ? eps[rank].rate_gbps : 0.0;
}

}  // namespace

std::vector<DirectionVerdict> judge_stage(const StageResult& stage, const std::vector<EndpointInfo>& endpoints,
                                          const VerdictOptions& o) {
  std::map<int, int> sends, receives;
  for (const auto& f : stage.flows)
    for (const auto& d : f.directions) {
      ++sends[d.from];
      ++receives[d.to];
    }
  std::vector<DirectionVerdict> out;
  for (const auto& f : stage.flows) {
    for (const auto& d : f.directions) {
      DirectionVerdict v{stage.index, f.id, d.from, d.to, d.gbps, 0, Verdict::Unjudged, ""};
      double a = endpoint_rate(endpoints, d.from, o) / sends[d.from];
      double b = endpoint_rate(endpoints, d.to, o) / receives[d.to];
      v.expected_gbps = a > 0 && b > 0 ? std::min(a, b) : std::max(a, b);
      if (d.status == DirectionStatus::Failed) {
        v.verdict = Verdict::Failed;
        v.reason = d.reason;
      } else if (d.status == DirectionStatus::Interrupted) {
        v.verdict = Verdict::Interrupted;
        v.reason = d.reason;
      } else if (d.status == DirectionStatus::Skipped) {
        v.verdict = Verdict::Unjudged;
        v.reason = d.reason;
      } else if (v.expected_gbps <= 0) {
        v.verdict = Verdict::Unjudged;
        v.reason = "no expected rate (give --expect-gbps)";
      } else if (d.gbps >= o.threshold * v.expected_gbps) {
        v.verdict = Verdict::Pass;
      } else {
        v.verdict = Verdict::Slow;
        v.reason = fmt::format("{:.2f} Gb/s < {:.0f}% of {:.2f} Gb/s", d.gbps, o.threshold * 100, v.expected_gbps);
      }
      out.push_back(std::move(v));
    }
  }
  return out;
}

std::vector<EndpointVerdict> judge_endpoints(const std::vector<DirectionVerdict>& directions, int ranks,
                                             const LostRanks& lost, const std::vector<EndpointInfo>& endpoints,
                                             const std::set<int>& port_down) {
  std::vector<EndpointVerdict> out(ranks);
  for (int r = 0; r < ranks; ++r) out[r].rank = r;
  // Each rank's directions, so judging a rank does not scan every direction (32k ranks).
  std::vector<std::vector<const DirectionVerdict*>> of_rank(ranks);
  bool any_interrupted = false;
  for (const auto& d : directions) {
    if (d.from >= 0 && d.from < ranks) of_rank[d.from].push_back(&d);
    if (d.to != d.from && d.to >= 0 && d.to < ranks) of_rank[d.to].push_back(&d);
    for (int r : {d.from, d.to}) {
      if (r < 0 || r >= ranks) continue;
      auto& e = out[r];
      if (d.verdict == Verdict::Interrupted) any_interrupted = true;
      if (!judged(d.verdict)) continue;
      ++e.directions;
      e.bad += bad(d.verdict);
      double& m = r == d.from ? e.min_tx_gbps : e.min_rx_gbps;
      m = m < 0 ? d.gbps : std::min(m, d.gbps);
    }
  }
  // First pass: endpoints that are bad on their own (lost, or every direction bad).
  std::set<int> bad_on_own;
  for (auto& e : out) {
    if (auto it = lost.find(e.rank); it != lost.end()) {
      e.verdict = Verdict::Failed;
      e.reason = it->second;
      bad_on_own.insert(e.rank);
    } else if (e.directions > 0 && e.bad == e.directions) {
      bool failed = false, own = port_down.contains(e.rank);
      for (const auto* d : of_rank[e.rank]) {
        if (d->verdict == Verdict::Failed) failed = true;
        if (judged(d->verdict) && !port_down.contains(d->from == e.rank ? d->to : d->from)) own = true;
      }
      if (!own) continue;  // every direction to a port that went down: the second pass explains them
      e.verdict = failed ? Verdict::Failed : Verdict::Slow;
      e.reason = fmt::format("all {} measured directions {}", e.directions, failed ? "slow or failed" : "slow");
      bad_on_own.insert(e.rank);
    }
  }
  // Second pass: the rest pass unless a bad direction is not explained by a bad peer.
  for (auto& e : out) {
    if (bad_on_own.count(e.rank)) continue;
    if (e.directions == 0) {
      e.verdict = any_interrupted ? Verdict::Interrupted : Verdict::Unjudged;
      continue;
    }
    std::vector<std::string> unexplained;
    for (const auto* d : of_rank[e.rank]) {
      if (!bad(d->verdict)) continue;
      int peer = d->from == e.rank ? d->to : d->from;
      if (!bad_on_own.count(peer))
        unexplained.push_back(fmt::format("stage {} {} {} {}", d->stage, d->from == e.rank ? "to" : "from",
                                          endpoint_name(endpoints, peer), to_string(d->verdict)));
    }
    if (unexplained.empty()) {
      e.verdict = Verdict::Pass;
    } else {
      e.verdict = Verdict::Suspect;
      std::string joined;
      for (const auto& u : unexplained) joined += (joined.empty() ? "" : ", ") + u;
      e.reason = "bad directions with healthy peers: " + joined;
    }
  }
  return out;
}

PortRef endpoint_ref(const std::vector<EndpointInfo>& eps, int rank) {
  if (rank < 0 || rank >= static_cast<int>(eps.size())) return {fmt::format("rank {}", rank), 0};
  const auto& e = eps[rank];
  return {fmt::format("rank {} {}:{}", rank, e.host, e.endpoint), 0};
}

std::optional<int> rank_of_ref(const PortRef& port) {
  int rank = -1, used = 0;
  if (port.port != 0 || std::sscanf(port.node.c_str(), "rank %d%n", &rank, &used) != 1 || rank < 0) return std::nullopt;
  if (used != static_cast<int>(port.node.size()) && port.node[used] != ' ') return std::nullopt;
  return rank;
}

namespace {

// The finding of an endpoint judged on its own (make_summary reports only these verdicts).
FindingKind endpoint_kind(Verdict v) {
  if (v == Verdict::Slow) return FindingKind::SlowEndpoint;
  if (v == Verdict::Failed) return FindingKind::FailedEndpoint;
  return FindingKind::SuspectEndpoint;
}

}  // namespace

Summary make_summary(const SummaryInput& in) {
  std::vector<DirectionVerdict> dirs;
  for (const auto& s : in.stages) {
    auto v = judge_stage(s, in.endpoints, in.options);
    dirs.insert(dirs.end(), v.begin(), v.end());
  }
  const int ranks = static_cast<int>(in.endpoints.size());
  std::set<int> port_down;
  for (const auto& [rank, rise] : in.port_counters)
    if (auto it = rise.find("link_downed"); it != rise.end() && it->second > 0) port_down.insert(rank);
  auto eps = judge_endpoints(dirs, ranks, in.lost, in.endpoints, port_down);

  Summary out;
  BurnSummary& doc = out.doc;
  auto name = [&](int rank, auto& record) {
    if (rank < static_cast<int>(in.endpoints.size())) {
      record.host = in.endpoints[rank].host;
      record.endpoint = in.endpoints[rank].endpoint;
    }
  };
  for (const auto& d : dirs) {
    ++doc.counts[to_string(d.verdict)];
    doc.flows.push_back(d);
    if (bad(d.verdict)) {
      Finding f;
      f.kind = d.verdict == Verdict::Slow ? FindingKind::SlowFlow : FindingKind::FailedFlow;
      f.severity = Severity::Error;
      f.message = fmt::format("stage {} flow {}: {}: {}", d.stage, d.flow, direction_name(in.endpoints, d.from, d.to),
                              d.reason);
      f.ports = {endpoint_ref(in.endpoints, d.from), endpoint_ref(in.endpoints, d.to)};
      f.details = to_json(d);
      out.findings.push_back(std::move(f));
    }
  }
  for (const auto& e : eps) {
    EndpointRecord r;
    r.rank = e.rank;
    r.verdict = e.verdict;
    r.directions = e.directions;
    r.bad = e.bad;
    name(e.rank, r);
    if (e.min_tx_gbps >= 0) r.min_tx_gbps = e.min_tx_gbps;
    if (e.min_rx_gbps >= 0) r.min_rx_gbps = e.min_rx_gbps;
    if (!e.reason.empty()) r.reason = e.reason;
    if (auto c = in.port_counters.find(e.rank); c != in.port_counters.end()) r.port_counters = c->second;
    doc.endpoints.push_back(r);
    if (e.verdict == Verdict::Slow || e.verdict == Verdict::Failed || e.verdict == Verdict::Suspect) {
      Finding f;
      f.kind = in.lost.count(e.rank) ? FindingKind::LostRank : endpoint_kind(e.verdict);
      f.severity = e.verdict == Verdict::Suspect ? Severity::Warning : Severity::Error;
      f.message = fmt::format("{}: {}", endpoint_name(in.endpoints, e.rank), e.reason);
      f.ports = {endpoint_ref(in.endpoints, e.rank)};
      f.details = to_json(r);
      out.findings.push_back(std::move(f));
    }
  }
  // A host port's own counters that say it lost or broke packets: one finding per port (its
  // ranks say the same).
  std::set<std::string> ports_told;
  for (const auto& [rank, rise] : in.port_counters) {
    const std::string problem = port_counter_problem(rise, in.options.max_recovered_per_packet);
    if (problem.empty() || !ports_told.insert(endpoint_name(in.endpoints, rank)).second) continue;
    ErrorsUnderLoadDetails details;
    for (const auto& [counter, value] : rise)
      if (value > 0 && counter_class(counter) != CounterClass::Traffic) details.rise[counter] = value;
    for (const auto& s : in.stages)
      for (const auto& fl : s.flows)
        for (const auto& d : fl.directions)
          if (d.from == rank || d.to == rank) details.seconds = std::max(details.seconds, d.seconds);
    Finding f;
    f.kind = FindingKind::ErrorsUnderLoad;
    f.severity = Severity::Error;
    f.message =
        fmt::format("{}: the port's own counters during the burn: {}", endpoint_name(in.endpoints, rank), problem);
    f.ports = {endpoint_ref(in.endpoints, rank)};
    f.details = details;
    out.findings.push_back(std::move(f));
  }
  for (const auto& [rank, reason] : in.lost) {
    LostRankRecord r{rank, reason, std::nullopt, std::nullopt};
    name(rank, r);
    doc.lost_ranks.push_back(r);
  }
  doc.transport = in.transport;
  doc.complete = in.complete;
  doc.interrupted = in.interrupted;
  doc.stages_planned = in.stages_planned;
  doc.stages_run = static_cast<int>(in.stages.size());
  doc.threshold = in.options.threshold;
  doc.expect_gbps = in.options.expect_gbps;
  doc.pass = out.findings.empty();
  return out;
}

}  // namespace ibburn::burn
