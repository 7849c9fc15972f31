#include "health/ber_check.h"

#include <algorithm>
#include <map>
#include <sstream>

namespace ibburn::health {
namespace {

std::string number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

std::string where(const PortRef& p) { return p.node + (p.port ? " port " + std::to_string(p.port) : ""); }

struct Over {
  std::vector<std::string> why;
  bool error = false;
};

Over over(const PortBer& p, const BerLimits& l) {
  Over o;
  for (auto [name, v] : {std::pair{"effective", p.effective_ber}, std::pair{"symbol", p.symbol_ber}})
    if (v && *v > l.effective_max) {
      o.why.push_back(std::string(name) + " BER " + number(*v) + " (over " + number(l.effective_max) + ")");
      o.error = true;
    }
  if (p.raw_ber && *p.raw_ber > l.raw_max)
    o.why.push_back("raw BER " + number(*p.raw_ber) + " (over " + number(l.raw_max) + ")");
  return o;
}

nlohmann::json readings(const PortBer& p) {
  nlohmann::json j = {{"port", where(p.port)}, {"fec", p.fec}};
  if (p.raw_ber) j["raw_ber"] = *p.raw_ber;
  if (p.effective_ber) j["effective_ber"] = *p.effective_ber;
  if (p.symbol_ber) j["symbol_ber"] = *p.symbol_ber;
  return j;
}

}  // namespace

std::vector<Finding> check_ber(const std::vector<PortBer>& ports, const BerLimits& limits) {
  // One entry per cable: keyed by its ends in order, so a cable read from both ends is one.
  std::map<std::pair<std::string, std::string>, Finding> by_cable;
  size_t with_reading = 0, ports_over = 0;
  for (const PortBer& p : ports) {
    if (!p.raw_ber && !p.effective_ber && !p.symbol_ber) continue;
    ++with_reading;
    const Over o = over(p, limits);
    if (o.why.empty()) continue;
    ++ports_over;
    PortRef a = p.port, b = p.peer.value_or(PortRef{});
    if (p.peer && where(b) < where(a)) std::swap(a, b);
    auto [it, fresh] = by_cable.try_emplace({where(a), p.peer ? where(b) : ""});
    Finding& f = it->second;
    std::string told = where(p.port) + ": ";
    for (size_t i = 0; i < o.why.size(); ++i) told += (i ? ", " : "") + o.why[i];
    if (!p.fec.empty()) told += ", FEC " + p.fec;
    if (fresh) {
      f.kind = FindingKind::BerHigh;
      f.severity = Severity::Warning;
      f.ports = p.peer ? std::vector<PortRef>{a, b} : std::vector<PortRef>{a};
      f.message = told;
      f.details["ends"] = nlohmann::json::array();
    } else {
      f.message += "; " + told;
    }
    if (o.error) f.severity = Severity::Error;
    f.details["ends"].push_back(readings(p));
  }
  std::vector<Finding> out;
  for (auto& [k, f] : by_cable) out.push_back(std::move(f));
  const bool most = ports_over >= limits.most_min &&
                    static_cast<double>(ports_over) >= limits.most_share * static_cast<double>(with_reading);
  if (!most) return out;
  Finding one;
  one.kind = FindingKind::PortsBerHigh;
  one.severity = Severity::Info;
  nlohmann::json each = nlohmann::json::array();
  for (const Finding& f : out) {
    one.severity = std::max(one.severity, f.severity);
    each.push_back(to_json(f));
  }
  one.message = std::to_string(ports_over) + " of " + std::to_string(with_reading) +
                " ports with a BER reading over their limits: one cause (a cable batch, the FEC mode, firmware), not "
                "each cable";
  one.details = {{"count", ports_over}, {"readings", with_reading}, {"each", each}};
  return {one};
}

}  // namespace ibburn::health
