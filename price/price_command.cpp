#include "price/price_command.h"

#include <ostream>
#include <regex>

#include <fmt/format.h>

#include "burn/summary.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "localization/burn_localize.h"
#include "wiring/name_inference.h"
#include "wiring/wiring.h"

namespace ibburn::price {

double parse_slowdown_limit(const std::string& text, const std::string& option) {
  static const std::regex re(R"(^([0-9]+(\.[0-9]*)?)(%?)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re))
    throw InputError(option, 0, fmt::format("expected a slowdown such as 2% or 0.02, got '{}'", text));
  double v = std::stod(m[1]);
  if (m[3].length()) v /= 100;
  if (v > 10) throw InputError(option, 0, fmt::format("'{}' allows more than 11x: give a share such as 2%", text));
  return v;
}

namespace {

Subject what_if(const std::string& spec, double fraction, const PriceFabric& fabric) {
  std::unordered_map<routing::EdgeId, double> scale;
  routing::parse_degrade(fraction < 0 ? spec : spec + "=0", fabric.fabric(), fabric.cables(), scale);
  Subject s;
  s.kind = "what_if";
  const std::string port = spec.substr(0, spec.find('='));
  Defect d;
  d.scale.insert(scale.begin(), scale.end());
  const double f = scale.begin()->second;
  d.what = f <= 0 ? "down" : fmt::format("at {:.0f}%", f * 100);
  s.message = fmt::format("what if {} is {}", port, d.what);
  // The port as given first, then its peer.
  routing::EdgeId given = scale.begin()->first;
  const auto node = fabric.fabric().find_name(port.substr(0, port.rfind('[')));
  for (const auto& [e, x] : scale)
    if (node && fabric.cables().edge(e).from.node == *node) given = e;
  const auto& edge = fabric.cables().edge(given);
  const auto& a = fabric.fabric().node(edge.from.node);
  const auto& b = fabric.fabric().node(edge.to.node);
  s.ports = {{a.name, edge.from.port}, {b.name, edge.to.port}};
  s.defect = std::move(d);
  return s;
}

}  // namespace

int price_command(const PriceCommandOptions& o, std::ostream& out) {
  PriceOptions po = o.price;
  if (!o.max_slowdown.empty()) po.max_slowdown = parse_slowdown_limit(o.max_slowdown, "--max-slowdown");
  std::optional<wiring::Wiring> plan;
  if (!o.wiring.empty()) plan = wiring::load_wiring_csv(o.wiring);  // bad input before the fabric is read
  topo::Fabric loaded = o.routes.fabric.load();
  if (plan) wiring::name_switches_from_plan(loaded, *plan);
  const auto model = routing::make_route_model(std::move(loaded), o.routes);
  const PriceFabric fabric(model->fabric, *model->cables, *model->router, o.routes.routing == "adaptive");
  std::vector<Subject> subjects;
  if (!o.results.empty()) {
    const burn::BurnSummary doc = burn::load_summary(o.results + "/summary.json");
    const std::vector<Finding> findings = doc.findings ? *doc.findings : std::vector<Finding>{};
    const auto ranks = ports_of_ranks(fabric, localization::load_burn_outcome(o.results).port_guid_by_rank);
    subjects = subjects_of(findings, fabric, measured_rates(fabric, doc, ranks));
  }
  for (const auto& d : o.degrade) subjects.push_back(what_if(d, -1, fabric));
  static const std::regex port_re(R"(^.+\[\d+\]$)");
  for (const auto& d : o.down) {
    if (!std::regex_match(d, port_re)) throw InputError("--down", 0, "expected NODE[PORT], got '" + d + "'");
    subjects.push_back(what_if(d, 0, fabric));
  }
  std::set<HostId> drained;
  for (const auto& h : o.drain) {
    const auto id = fabric.find_host(h);
    if (!id)
      throw InputError("--drain", 0,
                       "no host '" + h + "' in the fabric (hosts are named by their HCAs' node descriptions)");
    drained.insert(*id);
  }
  const PriceReport report = price_subjects(fabric, std::move(subjects), po, drained);
  if (!o.json.empty()) write_file_atomic(o.json, to_json(report).dump(2) + "\n");
  out << fmt::format("price: {} hosts on {} rail(s), {} routing; {} finding(s) and what-if(s) priced\n", report.hosts,
                     report.rails, report.adaptive ? "adaptive" : "lft", report.findings.size());
  print_price(out, report, o.top);
  return report.go() ? kExitOk : kExitFindings;
}

}  // namespace ibburn::price
