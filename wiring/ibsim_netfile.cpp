#include "wiring/ibsim_netfile.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "common/error.h"
#include "common/guid.h"

namespace ibburn::wiring {
namespace {

// ibsim 0.10 defaults (MAXNETNODES, MAXNETSWITCHS, MAXNETPORTS, MAXLINEARCAP).
constexpr size_t kDefaultNodes = 2048;
constexpr size_t kDefaultSwitches = 256;
constexpr size_t kDefaultPorts = kDefaultSwitches * 36 + kDefaultNodes * 2;
constexpr size_t kDefaultLinearCap = 30 * 1024;
constexpr size_t kUnicastLids = 0xbfff;     // LIDs 1..0xbfff
constexpr size_t kLftBlock = 64;            // forwarding tables come in blocks of 64 LIDs
constexpr size_t kNodeDescriptionMax = 63;  // NodeDescription is 64 bytes, NUL included

constexpr uint16_t kMellanoxVendor = 0x02c9;
constexpr uint16_t kQuantum2DeviceId = 0xd2f2;  // MQM9700
constexpr uint16_t kConnectX7DeviceId = 0x1021;

struct Peer {
  int node = -1;  // index: switches first, then HCAs
  int port = 0;
};

// `lids`: one per switch and per CA port (LMC 0), what the SM hands out.
IbsimSizes sizes_for(size_t nodes, size_t switches, size_t ports, size_t lids) {
  IbsimSizes s;
  s.nodes = std::max(nodes, kDefaultNodes);
  s.switches = std::max(switches, kDefaultSwitches);
  s.ports = std::max(ports, kDefaultPorts);
  s.lids_exhausted = lids > kUnicastLids;
  const size_t cap = (lids + 1 + kLftBlock - 1) / kLftBlock * kLftBlock;  // LID 0 is unused
  s.linear_cap = std::clamp(cap, kDefaultLinearCap, kUnicastLids + 1);
  return s;
}

void check_description(const std::string& d) {
  if (d.size() > kNodeDescriptionMax)
    throw Error(kExitInput, "node description '" + d + "' is longer than the 63 bytes of a NodeDescription");
}

}  // namespace

topo::LinkRate ibsim_rate(topo::LinkRate wanted) {
  if (wanted.speed == topo::Speed::NDR || wanted.speed == topo::Speed::XDR) wanted.speed = topo::Speed::HDR;
  return wanted;
}

std::string ibsim_node_id(topo::NodeType type, uint64_t guid) {
  return fmt::format("{}-{}", type == topo::NodeType::Switch ? 'S' : 'H', Guid{guid}.digits());
}

std::string to_ibsim_netfile(const FatTreeDesign& d, const NetfileOptions& options) {
  const size_t ns = d.switches.size();
  const size_t total = ns + d.hcas.size();
  // Node index by name, then every port's peer.
  std::unordered_map<std::string_view, int> index;
  index.reserve(total);
  std::vector<size_t> first_port(total + 1);  // peers of node n: [first_port[n], first_port[n+1])
  for (size_t i = 0; i < total; ++i) {
    const bool sw = i < ns;
    std::string_view name = sw ? std::string_view(d.switches[i].name) : std::string_view(d.hcas[i - ns].description);
    if (!index.emplace(name, static_cast<int>(i)).second)
      throw Error(kExitInput, "design names two nodes '" + std::string(name) + "'");
    first_port[i + 1] = first_port[i] + (sw ? d.switches[i].ports : 1) + 1;
  }
  std::vector<Peer> peers(first_port[total]);
  auto peer_of = [&](const CableEnd& e) -> Peer {
    auto it = index.find(e.node);
    if (it == index.end()) throw Error(kExitInput, "cable end " + e.node + " is not a node of the design");
    if (first_port[it->second] + e.port >= first_port[it->second + 1])
      throw Error(kExitInput, fmt::format("{}[{}] is beyond the node's ports", e.node, e.port));
    return {it->second, e.port};
  };
  for (const Cable& c : d.wiring.cables) {
    Peer a = peer_of(c.a), b = peer_of(c.b);
    peers[first_port[a.node] + a.port] = b;
    peers[first_port[b.node] + b.port] = a;
  }

  const topo::LinkRate sim = ibsim_rate(d.spec.rate);
  const std::string rate = topo::to_string(sim);
  auto guid_of = [&](int n) { return n < static_cast<int>(ns) ? d.switches[n].guid : d.hcas[n - ns].guid; };
  auto is_switch = [&](int n) { return n < static_cast<int>(ns); };
  std::vector<std::string> descriptions(total);
  for (size_t i = 0; i < total; ++i) {
    descriptions[i] = i >= ns                               ? d.hcas[i - ns].description
                      : options.generic_switch_descriptions ? kGenericSwitchDescription
                                                            : d.switches[i].name;
    check_description(descriptions[i]);
  }
  auto port_guid = [&](int n, int port) { return is_switch(n) ? guid_of(n) : guid_of(n) + port; };
  std::vector<std::string> ids(total);
  for (size_t i = 0; i < total; ++i)
    ids[i] = ibsim_node_id(is_switch(static_cast<int>(i)) ? topo::NodeType::Switch : topo::NodeType::CA,
                           guid_of(static_cast<int>(i)));
  auto id_of = [&](int n) -> const std::string& { return ids[n]; };

  fmt::memory_buffer out;
  out.reserve(first_port[total] * 24 + total * 200);
  auto put = [&out]<typename... T>(fmt::format_string<T...> f, T&&... args) {
    fmt::format_to(std::back_inserter(out), f, std::forward<T>(args)...);
  };
  put("# ibsim netfile (ibnetdiscover text) written by ibburn wiring gen fat-tree\n{}", describe(d, "# "));
  if (sim != d.spec.rate)
    put("# Links are simulated at {}: ibsim 0.10 knows speeds up to HDR (the plan says {}).\n", rate,
        topo::to_string(d.spec.rate));
  IbsimSizes sizes = ibsim_sizes(d);
  std::string args;
  for (const std::string& a : sizes.args()) args += a + " ";
  put("# Start: IBSIM_SOCKNAME=<unique> ibsim -s {}<this file>\n\n", args);

  // Records: HCAs first (see the header), then switches; only cabled ports are listed.
  for (size_t step = 0; step < total; ++step) {
    const int n = static_cast<int>(step < d.hcas.size() ? ns + step : step - d.hcas.size());
    const uint64_t guid = guid_of(n);
    const int nports = static_cast<int>(first_port[n + 1] - first_port[n]) - 1;
    if (is_switch(n)) {
      put("vendid=0x{:x}\ndevid=0x{:x}\nsysimgguid={}\nswitchguid={}({:x})\n", kMellanoxVendor, kQuantum2DeviceId,
          Guid{guid}, Guid{guid}, guid);
      put("Switch\t{} \"{}\"\t\t# \"{}\" enhanced port 0 lid 0 lmc 0\n", nports, id_of(n), descriptions[n]);
    } else {
      put("vendid=0x{:x}\ndevid=0x{:x}\nsysimgguid={}\ncaguid={}\n", kMellanoxVendor, kConnectX7DeviceId, Guid{guid},
          Guid{guid});
      put("Ca\t{} \"{}\"\t\t# \"{}\"\n", nports, id_of(n), descriptions[n]);
    }
    for (int p = 1; p <= nports; ++p) {
      const Peer& r = peers[first_port[n] + p];
      if (r.node < 0) continue;
      if (is_switch(n)) {
        put("[{}]\t\"{}\"[{}]", p, id_of(r.node), r.port);
        if (!is_switch(r.node)) put("({:x}) ", port_guid(r.node, r.port));
        put("\t\t# \"{}\" lid 0 {}\n", descriptions[r.node], rate);
      } else {
        put("[{}]({:x}) \t\"{}\"[{}]\t\t# lid 0 lmc 0 \"{}\" lid 0 {}\n", p, port_guid(n, p), id_of(r.node), r.port,
            descriptions[r.node], rate);
      }
    }
    put("\n");
  }
  return fmt::to_string(out);
}

std::vector<std::string> IbsimSizes::args() const {
  std::vector<std::string> a = {"-N", std::to_string(nodes), "-S", std::to_string(switches),
                                "-P", std::to_string(ports)};
  if (linear_cap > kDefaultLinearCap) {
    a.push_back("-L");
    a.push_back(std::to_string(linear_cap));
  }
  return a;
}

IbsimSizes ibsim_sizes(const FatTreeDesign& d) {
  size_t ports = d.hcas.size();  // one port per HCA
  for (const FatTreeSwitch& s : d.switches) ports += s.ports + 1;
  return sizes_for(d.switches.size() + d.hcas.size(), d.switches.size(), ports, d.switches.size() + d.hcas.size());
}

IbsimSizes ibsim_sizes_for_netfile(const std::string& text) {
  size_t nodes = 0, switches = 0, ports = 0, ca_ports = 0;
  std::string_view all(text);
  for (size_t pos = 0; pos < all.size();) {
    size_t nl = all.find('\n', pos);
    std::string_view line = all.substr(pos, (nl == std::string_view::npos ? all.size() : nl) - pos);
    pos = nl == std::string_view::npos ? all.size() : nl + 1;
    // ibsim matches these prefixes at the start of a line, then takes the first number.
    const bool sw = line.starts_with("Switch");
    if (!sw && !line.starts_with("Ca") && !line.starts_with("Hca") && !line.starts_with("Rt")) continue;
    size_t digit = line.find_first_of("0123456789");
    if (digit == std::string_view::npos) continue;
    size_t count = 0;
    for (size_t i = digit; i < line.size() && line[i] >= '0' && line[i] <= '9'; ++i)
      count = count * 10 + static_cast<size_t>(line[i] - '0');
    ++nodes;
    if (sw) {
      ++switches;
      ports += count + 1;  // port 0
    } else {
      ports += count;
      ca_ports += count;
    }
  }
  return sizes_for(nodes, switches, ports, switches + ca_ports);
}

}  // namespace ibburn::wiring
