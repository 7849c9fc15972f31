#include "routing/route_model.h"

#include <regex>

#include "common/error.h"
#include "common/file_io.h"
#include "routing/lft_reader.h"

namespace ibburn::routing {

std::unique_ptr<RouteModel> load_route_model(const RouteOptions& a) { return make_route_model(a.fabric.load(), a); }

std::unique_ptr<RouteModel> make_route_model(topo::Fabric fabric, const RouteOptions& a) {
  auto r = std::make_unique<RouteModel>();
  r->fabric = std::move(fabric);
  r->cables = std::make_unique<CableIndex>(r->fabric, 0);
  for (const auto& e : r->cables->edges())
    if (e.capacity_gbps <= 0)
      throw InputError(a.fabric.name(), 0, "link " + r->fabric.port_name(e.from) + " has no known rate");
  if (a.routing == "adaptive") {
    r->router = std::make_unique<AdaptiveRouter>(r->fabric, *r->cables);
    return r;
  }
  if (a.routing != "lft") throw InputError("--routing", 0, "unknown routing '" + a.routing + "' (lft, adaptive)");
  if (!a.lfts.empty()) {
    r->lfts = load_lfts_json(a.lfts);
  } else if (a.fabric.is_live()) {
    r->lfts = read_forwarding_tables(r->fabric, a.fabric.live.mad);
  } else {
    throw InputError("--routing", 0,
                     "lft routing needs the forwarding tables: use --fabric live, --lfts FILE, "
                     "or --routing adaptive");
  }
  if (!a.save_lfts.empty()) write_file_atomic(a.save_lfts, lfts_to_json_text(*r->lfts));
  r->router = std::make_unique<LftRouter>(r->fabric, *r->cables, *r->lfts);
  return r;
}

void parse_degrade(const std::string& spec, const topo::Fabric& fabric, const CableIndex& cables,
                   std::unordered_map<EdgeId, double>& out) {
  static const std::regex re(R"(^(.+)\[(\d+)\]=([0-9.]+)$)");
  std::smatch m;
  if (!std::regex_match(spec, m, re))
    throw InputError("--degrade", 0, "expected NODE[PORT]=FRACTION, got '" + spec + "'");
  auto node = fabric.find_name(m[1]);
  if (!node) throw InputError("--degrade", 0, "unknown node '" + m[1].str() + "'");
  topo::PortEnd p{*node, std::stoi(m[2])};
  if (!cables.has_out_edge(p)) throw InputError("--degrade", 0, fabric.port_name(p) + " is not cabled");
  double f = std::stod(m[3]);
  if (f < 0 || f > 1) throw InputError("--degrade", 0, "fraction must be within 0..1 in '" + spec + "'");
  EdgeId e = cables.out_edge(p);
  out[e] = f;
  out[cables.reverse(e)] = f;
}

}  // namespace ibburn::routing
