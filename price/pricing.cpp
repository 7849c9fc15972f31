#include "price/pricing.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <set>

#include <fmt/format.h>

namespace ibburn::price {

namespace {

// Slower than this is slowed (rounding of the loads aside).
constexpr double kSlowed = 1.0005;

bool touches(const PriceFabric& fabric, const RateScale& scale, const std::set<HostId>& hosts,
             const std::vector<char>& groups) {
  for (const auto& [e, s] : scale) {
    if (const HostId h = fabric.host_of_edge(e); h != UINT32_MAX) {
      if (hosts.contains(h)) return true;
    } else if (groups[fabric.group(e)]) {
      return true;
    }
  }
  return false;
}

// The design's rates (the model's, over a defect's scale where the model already runs a cable
// below its plan), and every defect at once.
std::pair<std::vector<double>, RateScale> defect_set(const PriceFabric& fabric, const std::vector<Subject>& subjects) {
  std::vector<double> designed(fabric.cables().size());
  for (routing::EdgeId e = 0; e < designed.size(); ++e) designed[e] = fabric.cables().edge(e).capacity_gbps;
  RateScale all;
  for (const auto& s : subjects) {
    if (!s.defect) continue;
    if (s.defect->in_model)
      for (const auto& [e, x] : s.defect->scale)
        if (x > 0 && !all.contains(e)) designed[e] /= x;
    merge_into(all, s.defect->scale);
  }
  return {std::move(designed), std::move(all)};
}

void add_to(Cost& c, double slowdown) {
  if (slowdown > kSlowed) ++c.slowed;
  c.worst = std::max(c.worst, slowdown);
}

}  // namespace

const Cost* FindingPrice::worst() const {
  const Cost* w = nullptr;
  for (const auto& c : costs)
    if (!w || c.worst > w->worst || (c.worst == w->worst && c.share() > w->share())) w = &c;
  return w;
}

std::string slowdown_text(double s) { return std::isfinite(s) ? fmt::format("{:.2f}x", s) : "cannot run"; }

std::string cost_text(const Cost& c) {
  const std::string job = c.job == "all" || c.job == "leaf" || c.job == "pod"
                              ? fmt::format("{} hosts ({})", c.hosts, c.job)
                              : fmt::format("{} hosts", c.hosts);
  if (c.slowed == 0) return fmt::format("{}, {}: no slowdown", to_string(c.collective), job);
  return fmt::format("{}, {}: {} in {:.0f}% of placements", to_string(c.collective), job, slowdown_text(c.worst),
                     100 * c.share());
}

std::vector<Subject> subjects_of(const std::vector<Finding>& findings, const PriceFabric& fabric,
                                 const RateScale& measured) {
  std::vector<Subject> out;
  for (const Finding& f : findings) {
    Subject s{to_string(f.kind), f.message, f.ports, std::nullopt, ""};
    s.defect = defect_of(f, fabric, measured, s.not_priced);
    out.push_back(std::move(s));
  }
  return out;
}

PriceReport price_subjects(const PriceFabric& fabric, std::vector<Subject> subjects, const PriceOptions& o,
                           const std::set<HostId>& drained) {
  PriceReport r;
  r.adaptive = fabric.adaptive();
  r.hosts = fabric.hosts().size() - drained.size();
  r.rails = fabric.rails().size();
  r.bytes = o.bytes;
  r.max_slowdown = o.max_slowdown;
  SlurmLayout layout = slurm_layout(fabric);
  for (auto& leaf : layout.leaves) std::erase_if(leaf, [&](HostId h) { return drained.contains(h); });
  r.jobs = parse_job_sizes(o.job_sizes, layout, o.option);

  auto [designed, all] = defect_set(fabric, subjects);
  for (size_t i = 0; i < subjects.size(); ++i) {
    FindingPrice p;
    p.subject = i;
    p.what = std::move(subjects[i]);
    r.findings.push_back(std::move(p));
  }
  StepTimer timer(fabric, std::move(designed));
  LoadBuilder builder(fabric);

  std::vector<char> groups(fabric.group_count(), 0);
  for (const JobSize& job : r.jobs) {
    const std::vector<Placement> ps = placements(layout, job.hosts);
    r.placements.push_back(ps.size());
    for (Collective c : kCollectives) {
      Cost base{c, job.label, job.hosts, ps.size(), 0, 1.0};
      FabricCost fc{base, {}, {}};
      for (auto& p : r.findings)
        if (p.defect()) p.costs.push_back(base);
      double worst_seen = 0;
      for (const Placement& placement : ps) {
        const EdgeLoads loads = collective_loads(fabric, c, placement.hosts, builder);
        const double t0 = timer.unit_time(loads);
        if (!(t0 > 0)) continue;  // nothing crosses a cable
        const double t = timer.unit_time(loads, &all);
        add_to(fc.cost, t / t0);
        if (t / t0 >= worst_seen) {
          worst_seen = t / t0;
          fc.designed = collective_time(c, job.hosts, t0, o.bytes);
          fc.measured = collective_time(c, job.hosts, t, o.bytes);
        }
        const std::set<HostId> hosts(placement.hosts.begin(), placement.hosts.end());
        for (const auto& [e, l] : loads)
          if (fabric.group(e) != kNoGroup) groups[fabric.group(e)] = 1;
        for (auto& p : r.findings) {
          if (!p.defect() || !touches(fabric, p.defect()->scale, hosts, groups)) continue;
          add_to(p.costs.back(), timer.unit_time(loads, &p.defect()->scale) / t0);
        }
        for (const auto& [e, l] : loads)
          if (fabric.group(e) != kNoGroup) groups[fabric.group(e)] = 0;
      }
      if (const auto& m = o.max_slowdown; m && fc.cost.worst > 1 + *m + 1e-12)
        r.no_go.push_back(fmt::format("{} (limit {:.2f}x)", cost_text(fc.cost), 1 + *m));
      r.fabric.push_back(fc);
    }
  }
  std::stable_sort(r.findings.begin(), r.findings.end(), [](const FindingPrice& a, const FindingPrice& b) {
    if (a.defect().has_value() != b.defect().has_value()) return a.defect().has_value();
    const Cost* wa = a.worst();
    const Cost* wb = b.worst();
    if (!wa || !wb) return wa != nullptr && wb == nullptr;
    if (wa->worst != wb->worst) return wa->worst > wb->worst;
    return wa->share() > wb->share();
  });
  return r;
}

RingCheck ring_check(const PriceFabric& fabric, const std::vector<Subject>& subjects, const std::vector<HostId>& order,
                     double measured_gbps) {
  auto [designed, all] = defect_set(fabric, subjects);
  StepTimer timer(fabric, std::move(designed));
  LoadBuilder builder(fabric);
  const EdgeLoads loads = collective_loads(fabric, Collective::RingAllReduce, order, builder);
  RingCheck c;
  c.hosts = order.size();
  c.measured_gbps = measured_gbps;
  const double t0 = timer.unit_time(loads), t = timer.unit_time(loads, &all);
  c.designed_gbps = t0 > 0 ? 1 / t0 : 0;
  c.model_gbps = t > 0 && std::isfinite(t) ? 1 / t : 0;
  return c;
}

nlohmann::json to_json(const RingCheck& c) {
  return {{"hosts", c.hosts},
          {"measured_gbps", c.measured_gbps},
          {"model_gbps", c.model_gbps},
          {"designed_gbps", c.designed_gbps}};
}

namespace {

nlohmann::json cost_json(const Cost& c) {
  return {{"collective", key(c.collective)},
          {"job", c.job},
          {"hosts", c.hosts},
          {"placements", c.placements},
          {"slowed", c.slowed},
          {"slowed_share", c.share()},
          {"worst_slowdown", std::isfinite(c.worst) ? nlohmann::json(c.worst) : nlohmann::json(nullptr)},
          {"text", cost_text(c)}};
}

nlohmann::json time_json(const CollectiveTime& t) {
  auto finite = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  return {{"busbw_gbps", t.busbw_gbps}, {"seconds", finite(t.seconds)}, {"step_seconds", finite(t.step_seconds)}};
}

}  // namespace

nlohmann::json to_json(const PriceReport& r) {
  nlohmann::json j{{"routing", r.adaptive ? "adaptive" : "lft"},
                   {"hosts", r.hosts},
                   {"rails", r.rails},
                   {"message_bytes", r.bytes},
                   {"max_slowdown", r.max_slowdown ? nlohmann::json(*r.max_slowdown) : nlohmann::json(nullptr)},
                   {"go", r.go()},
                   {"no_go", r.no_go}};
  j["job_sizes"] = nlohmann::json::array();
  for (size_t i = 0; i < r.jobs.size(); ++i)
    j["job_sizes"].push_back({{"job", r.jobs[i].label}, {"hosts", r.jobs[i].hosts}, {"placements", r.placements[i]}});
  j["fabric"] = nlohmann::json::array();
  for (const auto& f : r.fabric) {
    nlohmann::json c = cost_json(f.cost);
    c["designed"] = time_json(f.designed);
    c["measured"] = time_json(f.measured);
    j["fabric"].push_back(c);
  }
  j["repairs"] = nlohmann::json::array();
  for (const FindingPrice* p : r.repairs(3))
    j["repairs"].push_back(
        {{"message", p->what.message}, {"defect", p->defect()->what}, {"cost", cost_text(*p->worst())}});
  j["findings"] = nlohmann::json::array();
  for (const auto& p : r.findings) {
    nlohmann::json e{{"kind", p.what.kind}, {"message", p.what.message}};
    e["ports"] = nlohmann::json::array();
    for (const auto& port : p.what.ports) e["ports"].push_back({{"node", port.node}, {"port", port.port}});
    if (!p.defect()) {
      e["not_priced"] = p.what.not_priced;
    } else {
      e["defect"] = p.defect()->what;
      e["slowdown"] = std::isfinite(p.slowdown()) ? nlohmann::json(p.slowdown()) : nlohmann::json(nullptr);
      e["cost"] = p.worst() ? cost_text(*p.worst()) : "";
      e["costs"] = nlohmann::json::array();
      for (const auto& c : p.costs) e["costs"].push_back(cost_json(c));
    }
    j["findings"].push_back(e);
  }
  return j;
}

std::vector<const FindingPrice*> PriceReport::repairs(size_t top) const {
  std::vector<const FindingPrice*> out;
  std::set<std::string> parts;
  for (const auto& p : findings) {
    if (out.size() == top) break;
    if (!p.defect() || p.slowdown() <= kSlowed) continue;
    const auto& ports = p.what.ports;
    std::string part = p.what.message;
    if (ports.size() >= 2) {
      // Named strings: std::minmax of temporaries returns references to destroyed ones.
      const std::string a = ports[0].node + "[" + std::to_string(ports[0].port) + "]";
      const std::string b = ports[1].node + "[" + std::to_string(ports[1].port) + "]";
      part = a < b ? a + " " + b : b + " " + a;
    }
    if (parts.insert(part).second) out.push_back(&p);
  }
  return out;
}

void print_price(std::ostream& os, const PriceReport& r, size_t top) {
  if (r.max_slowdown)
    os << fmt::format("price: {} (limit {:.2f}x slower than designed)\n", r.go() ? "GO" : "NO-GO", 1 + *r.max_slowdown);
  for (const auto& n : r.no_go) os << "  no-go: " << n << "\n";
  for (const auto& f : r.fabric)
    os << fmt::format("  fabric as measured: {}; bus bandwidth {:.0f} of {:.0f} Gb/s\n", cost_text(f.cost),
                      f.measured.busbw_gbps, f.designed.busbw_gbps);
  size_t shown = 0;
  for (const FindingPrice* p : r.repairs(top))
    os << fmt::format("  repair {}: {} ({}): {}\n", ++shown, p->what.message, p->defect()->what,
                      cost_text(*p->worst()));
  if (shown == 0) os << "  no finding slows a collective\n";
}

}  // namespace ibburn::price
