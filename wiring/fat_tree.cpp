#include "wiring/fat_tree.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"

namespace ibburn::wiring {
namespace {

// GUIDs are fixed and readable: a Mellanox OUI, then the switch's tier, pod and index, or
// the HCA's host and index (HCAs step by 2 so that node GUID + 1, the port GUID ibsim
// gives port 1, never collides with another node).
constexpr uint64_t kSwitchGuidBase = 0x0002c90300000000ULL;
constexpr uint64_t kHcaGuidBase = 0x0002c90400000000ULL;
constexpr int kMaxHcasPerHost = 128;
constexpr int kMaxHosts = 1 << 24;
constexpr int kMaxRadix = 254;  // PortInfo port numbers are 8 bits, 255 reserved
// Planes number the switch GUIDs from bit 26 up (tier, pod and index fill the bits below).
constexpr int kMaxPlanes = 63;
constexpr int kPlaneGuidShift = 26;

[[noreturn]] void fail(const std::string& why) { throw Error(kExitInput, "fat tree: " + why); }

int ceil_div(long a, long b) { return static_cast<int>((a + b - 1) / b); }

int digits(int n) { return static_cast<int>(std::to_string(n).size()); }

std::string numbered(const std::string& prefix, int one_based, int width) {
  return fmt::format("{}{:0{}}", prefix, one_based, width);
}

// Largest divisor d of n with d * per <= limit, or 0.
int largest_divisor_within(int n, int per, int limit) {
  for (int d = n; d >= 1; --d)
    if (n % d == 0 && static_cast<long>(d) * per <= limit) return d;
  return 0;
}

void validate(const FatTreeSpec& s) {
  if (s.tiers != 2 && s.tiers != 3) fail("tiers must be 2 or 3, not " + std::to_string(s.tiers));
  if (s.radix < 4 || s.radix > kMaxRadix || s.radix % 2)
    fail("radix must be even, 4.." + std::to_string(kMaxRadix) + ", not " + std::to_string(s.radix));
  if (s.hosts < 1 || s.hosts > kMaxHosts) fail("hosts must be 1.." + std::to_string(kMaxHosts));
  if (s.hcas_per_host < 1 || s.hcas_per_host > kMaxHcasPerHost)
    fail("HCAs per host must be 1.." + std::to_string(kMaxHcasPerHost));
  if (s.pods < 0 || s.leaves_per_pod < 0 || s.spines_per_pod < 0 || s.cores < 0) fail("counts must not be negative");
  if (s.tiers == 2 && s.pods > 1) fail("pods need 3 tiers");
  if (s.tiers == 2 && s.cores > 0) fail("core switches need 3 tiers");
  if (!s.rate.known()) fail("the rate needs a width and a speed, e.g. 4xNDR");
  if (s.planes < 0 || s.planes > kMaxPlanes) fail("planes must be 0.." + std::to_string(kMaxPlanes));
  if (s.planes > 1 && s.planes != s.hcas_per_host)
    fail("planes are one per rail: --planes " + std::to_string(s.planes) + " needs " + std::to_string(s.planes) +
         " HCAs per host, not " + std::to_string(s.hcas_per_host));
  if (s.host_prefix.empty() || s.host_prefix.find_first_of(" ,\"#@=") != std::string::npos)
    fail("host prefix must be non-empty without spaces, commas, quotes, '#', '@' or '='");
}

FatTreeShape resolve(const FatTreeSpec& s) {
  validate(s);
  FatTreeShape sh;
  sh.tiers = s.tiers;
  sh.radix = s.radix;
  const int half = s.radix / 2;
  const int k = s.hcas_per_host;
  const long hcas = static_cast<long>(s.hosts) * k;
  sh.host_ports_per_leaf = half;
  sh.pods = s.tiers == 2 ? 1 : s.pods;

  // Leaves per pod: given, or as many as the hosts need (spread over the given pods), or a
  // full pod (radix/2 leaves: what one spine tier of this radix can serve).
  int leaves = s.leaves_per_pod;
  if (leaves == 0) {
    if (s.tiers == 2 || s.pods > 0) {
      long hosts_per_pod = ceil_div(s.hosts, sh.pods > 0 ? sh.pods : 1);
      leaves = s.rail_optimized ? k * ceil_div(hosts_per_pod, half) : ceil_div(hosts_per_pod * k, half);
    } else {
      leaves = s.rail_optimized ? half / k * k : half;
      if (leaves == 0)
        fail(fmt::format("{} rails (HCAs per host) need more leaves per pod than a radix-{} spine serves", k, s.radix));
    }
  }
  if (s.rail_optimized && leaves % k)
    fail(fmt::format("rail-optimised pods need a multiple of {} leaves (one group per rail), not {}", k, leaves));
  sh.leaves_per_pod = leaves;

  // A leaf has radix/2 uplinks spread evenly over the spines; a spine gives at most all its
  // ports (2 tiers) or half of them (3 tiers: the other half goes up) to leaves.
  const int spine_down_limit = s.tiers == 2 ? s.radix : half;
  if (s.spines_per_pod > 0) {
    if (half % s.spines_per_pod)
      fail(fmt::format("{} leaf uplinks cannot be spread evenly over {} spines", half, s.spines_per_pod));
    sh.leaf_spine_cables = half / s.spines_per_pod;
    if (static_cast<long>(leaves) * sh.leaf_spine_cables > spine_down_limit)
      fail(fmt::format("{} leaves x {} cables exceed the {} spine ports for leaves", leaves, sh.leaf_spine_cables,
                       spine_down_limit));
  } else {
    sh.leaf_spine_cables = largest_divisor_within(half, leaves, spine_down_limit);
    if (sh.leaf_spine_cables == 0) {
      if (s.tiers == 2)
        fail(
            fmt::format("{} HCAs need {} leaves, but a 2-tier fabric of radix {} holds at most {} leaves ({} "
                        "HCAs): use --tiers 3",
                        hcas, leaves, s.radix, s.radix, static_cast<long>(s.radix) * half));
      fail(fmt::format("{} leaves per pod exceed the {} a radix-{} spine can serve", leaves, half, s.radix));
    }
  }
  sh.spines_per_pod = half / sh.leaf_spine_cables;
  sh.hosts_per_pod = s.rail_optimized ? leaves / k * half : leaves * half / k;
  if (sh.hosts_per_pod == 0) fail("a pod holds no host: more leaves per pod needed");

  if (s.tiers == 2) {
    if (s.hosts > sh.hosts_per_pod)
      fail(fmt::format("{} leaves hold {} hosts, fewer than {}", leaves, sh.hosts_per_pod, s.hosts));
    return sh;
  }

  if (sh.pods == 0) sh.pods = ceil_div(s.hosts, sh.hosts_per_pod);
  if (static_cast<long>(sh.pods) * sh.hosts_per_pod < s.hosts)
    fail(fmt::format("{} pods of {} hosts hold fewer than {} hosts", sh.pods, sh.hosts_per_pod, s.hosts));
  // Spine s of every pod cables to core plane s; the spine's uplinks (as many as its leaf
  // ports: non-blocking) spread evenly over the plane; each core takes the same number of
  // cables from every pod.
  sh.spine_uplinks = leaves * sh.leaf_spine_cables;
  const int up = sh.spine_uplinks;
  if (s.cores > 0) {
    if (s.cores % sh.spines_per_pod)
      fail(fmt::format("{} cores cannot form one plane per spine ({} spines per pod)", s.cores, sh.spines_per_pod));
    sh.cores_per_plane = s.cores / sh.spines_per_pod;
    if (up % sh.cores_per_plane)
      fail(fmt::format("{} spine uplinks cannot be spread evenly over {} cores per plane", up, sh.cores_per_plane));
  } else {
    for (int q = 1; q <= up && sh.cores_per_plane == 0; ++q)
      if (up % q == 0 && static_cast<long>(sh.pods) * (up / q) <= s.radix) sh.cores_per_plane = q;
  }
  if (sh.cores_per_plane == 0 || static_cast<long>(sh.pods) * (up / sh.cores_per_plane) > s.radix)
    fail(fmt::format("{} pods exceed what radix-{} core switches can join", sh.pods, s.radix));
  sh.spine_core_cables = up / sh.cores_per_plane;
  sh.cores = sh.cores_per_plane * sh.spines_per_pod;
  return sh;
}

uint64_t switch_guid(Tier tier, int pod, int index) {
  return kSwitchGuidBase | (static_cast<uint64_t>(tier) << 24) | (static_cast<uint64_t>(pod + 1) << 16) |
         static_cast<uint64_t>(index + 1);
}

void add_cable(Wiring& w, const std::string& a, int ap, const std::string& b, int bp, topo::LinkRate rate) {
  Cable c;
  c.a = {a, ap};
  c.b = {b, bp};
  c.rate = rate;
  w.cables.push_back(std::move(c));
}

}  // namespace

const char* to_string(Tier t) {
  switch (t) {
    case Tier::Leaf: return "leaf";
    case Tier::Spine: return "spine";
    case Tier::Core: return "core";
  }
  return "?";
}

std::optional<FatTreeSpec> fat_tree_preset(const std::string& name) {
  if (name == "field-notes") {
    // 511 hosts x 8 HCAs, 64-port NDR switches, 8 pods x (16 leaf + 16 spine), 64 core.
    FatTreeSpec s;
    s.tiers = 3;
    s.radix = 64;
    s.hosts = 511;
    s.hcas_per_host = 8;
    s.pods = 8;
    s.leaves_per_pod = 16;
    s.spines_per_pod = 16;
    s.cores = 64;
    return s;
  }
  return std::nullopt;
}

std::vector<std::string> fat_tree_preset_names() { return {"field-notes"}; }

namespace {

FatTreeDesign generate_one_subnet(const FatTreeSpec& spec) {
  FatTreeDesign d;
  d.spec = spec;
  d.shape = resolve(spec);
  const FatTreeShape& sh = d.shape;
  const int half = sh.radix / 2;
  const int k = spec.hcas_per_host;
  const bool three = sh.tiers == 3;

  // Switches, with the index of each pod's first leaf/spine and of the first core.
  const int pod_width = digits(sh.pods);
  const int leaf_width = std::max(2, digits(sh.leaves_per_pod));
  const int spine_width = std::max(2, digits(sh.spines_per_pod));
  auto pod_prefix = [&](int p) { return three ? numbered("pod", p + 1, pod_width) + "-" : std::string(); };
  std::vector<size_t> first_leaf(sh.pods), first_spine(sh.pods);
  d.switches.reserve(static_cast<size_t>(sh.pods) * (sh.leaves_per_pod + sh.spines_per_pod) + sh.cores);
  for (int p = 0; p < sh.pods; ++p) {
    first_leaf[p] = d.switches.size();
    for (int i = 0; i < sh.leaves_per_pod; ++i)
      d.switches.push_back({numbered(pod_prefix(p) + "leaf", i + 1, leaf_width), Tier::Leaf, p, i,
                            switch_guid(Tier::Leaf, p, i), sh.radix});
    first_spine[p] = d.switches.size();
    for (int i = 0; i < sh.spines_per_pod; ++i)
      d.switches.push_back({numbered(pod_prefix(p) + "spine", i + 1, spine_width), Tier::Spine, p, i,
                            switch_guid(Tier::Spine, p, i), sh.radix});
  }
  const size_t first_core = d.switches.size();
  for (int i = 0; i < sh.cores; ++i)
    d.switches.push_back({numbered("core", i + 1, std::max(2, digits(sh.cores))), Tier::Core, -1, i,
                          switch_guid(Tier::Core, -1, i), sh.radix});

  Wiring& w = d.wiring;
  w.origin = "generated fat tree";
  const long leaf_spine = static_cast<long>(sh.pods) * sh.leaves_per_pod * half;
  const long spine_core = static_cast<long>(sh.pods) * sh.spines_per_pod * sh.spine_uplinks;
  w.cables.reserve(static_cast<size_t>(spec.hosts) * k + leaf_spine + spine_core);

  // Hosts fill pods in order. Rail-optimised: HCA k of the pod's i-th host sits on rail
  // group k (leaves k*L/K ..), port i mod radix/2; otherwise the pod's HCAs fill leaf ports
  // in order.
  const int host_width = std::max(3, digits(spec.hosts));
  const int leaves_per_rail = sh.leaves_per_pod / k;
  d.hcas.reserve(static_cast<size_t>(spec.hosts) * k);
  for (int h = 0; h < spec.hosts; ++h) {
    const int p = h / sh.hosts_per_pod;
    const int i = h % sh.hosts_per_pod;
    std::string host = numbered(spec.host_prefix, h + 1, host_width);
    for (int c = 0; c < k; ++c) {
      FatTreeHca hca;
      hca.host = host;
      hca.host_index = h;
      hca.hca = c;
      hca.description = host + " mlx5_" + std::to_string(c);
      hca.guid = kHcaGuidBase | (static_cast<uint64_t>(h) << 8) | (static_cast<uint64_t>(c) << 1);
      hca.pod = p;
      int leaf, port;
      if (spec.rail_optimized) {
        leaf = c * leaves_per_rail + i / half;
        port = i % half + 1;
      } else {
        const int n = i * k + c;
        leaf = n / half;
        port = n % half + 1;
      }
      add_cable(w, hca.description, 1, d.switches[first_leaf[p] + leaf].name, port, spec.rate);
      d.hcas.push_back(std::move(hca));
    }
  }

  // Leaf l's uplinks radix/2+1.. go c1 at a time to spines 0..; spine s takes them on
  // ports l*c1+1.. .
  const int c1 = sh.leaf_spine_cables;
  for (int p = 0; p < sh.pods; ++p)
    for (int l = 0; l < sh.leaves_per_pod; ++l)
      for (int s = 0; s < sh.spines_per_pod; ++s)
        for (int j = 0; j < c1; ++j)
          add_cable(w, d.switches[first_leaf[p] + l].name, half + 1 + s * c1 + j, d.switches[first_spine[p] + s].name,
                    l * c1 + j + 1, spec.rate);

  // Spine s of pod p: uplinks radix/2+1.. go c2 at a time to the cores of plane s; each
  // core takes pod p's cables on ports p*c2+1.. .
  const int c2 = sh.spine_core_cables;
  for (int p = 0; p < sh.pods && three; ++p)
    for (int s = 0; s < sh.spines_per_pod; ++s)
      for (int q = 0; q < sh.cores_per_plane; ++q)
        for (int j = 0; j < c2; ++j)
          add_cable(w, d.switches[first_spine[p] + s].name, half + 1 + q * c2 + j,
                    d.switches[first_core + s * sh.cores_per_plane + q].name, p * c2 + j + 1, spec.rate);
  return d;
}

// Plane k+1 is the fat tree of every host's HCA k: the one-HCA-per-host design with its
// switches renamed "planeK-..." and their GUIDs marked with the plane, its HCAs mlx5_k.
FatTreeDesign generate_planes(const FatTreeSpec& spec) {
  FatTreeSpec one = spec;
  one.hcas_per_host = 1;
  one.planes = 0;
  const FatTreeDesign rail = generate_one_subnet(one);
  FatTreeDesign d;
  d.spec = spec;
  d.shape = rail.shape;
  d.wiring.origin = "generated fat tree";
  const int planes = spec.planes;
  const int width = digits(planes);
  d.switches.reserve(rail.switches.size() * planes);
  d.hcas.reserve(rail.hcas.size() * planes);
  d.wiring.cables.reserve(rail.wiring.cables.size() * planes);
  std::vector<FatTreeHca> hcas;
  for (int k = 0; k < planes; ++k) {
    const int plane = k + 1;
    const std::string prefix = numbered("plane", plane, width) + "-";
    std::unordered_map<std::string, std::string> renamed;
    for (FatTreeSwitch sw : rail.switches) {
      renamed.emplace(sw.name, prefix + sw.name);
      sw.name = prefix + sw.name;
      sw.plane = plane;
      sw.guid |= static_cast<uint64_t>(plane) << kPlaneGuidShift;
      d.switches.push_back(std::move(sw));
    }
    for (const FatTreeHca& h : rail.hcas) {
      FatTreeHca hca = h;
      hca.hca = k;
      hca.description = hca.host + " mlx5_" + std::to_string(k);
      hca.guid = kHcaGuidBase | (static_cast<uint64_t>(hca.host_index) << 8) | (static_cast<uint64_t>(k) << 1);
      hca.plane = plane;
      renamed.emplace(h.description, hca.description);
      hcas.push_back(std::move(hca));
    }
    for (Cable c : rail.wiring.cables) {
      c.a.node = renamed.at(c.a.node);
      c.b.node = renamed.at(c.b.node);
      c.plane = plane;
      d.wiring.cables.push_back(std::move(c));
    }
  }
  // By host, then HCA, as in a design of one subnet.
  std::stable_sort(hcas.begin(), hcas.end(), [](const FatTreeHca& a, const FatTreeHca& b) {
    return a.host_index != b.host_index ? a.host_index < b.host_index : a.hca < b.hca;
  });
  d.hcas = std::move(hcas);
  return d;
}

}  // namespace

FatTreeDesign generate_fat_tree(const FatTreeSpec& spec) {
  validate(spec);
  return spec.planes > 1 ? generate_planes(spec) : generate_one_subnet(spec);
}

FatTreeDesign plane_design(const FatTreeDesign& design, int plane) {
  FatTreeDesign d;
  d.spec = design.spec;
  d.spec.planes = 0;
  d.spec.hcas_per_host = 1;
  d.shape = design.shape;
  d.wiring.origin = design.wiring.origin;
  for (const FatTreeSwitch& s : design.switches)
    if (s.plane == plane) d.switches.push_back(s);
  for (const FatTreeHca& h : design.hcas)
    if (h.plane == plane) d.hcas.push_back(h);
  for (const Cable& c : design.wiring.cables)
    if (c.plane == plane) d.wiring.cables.push_back(c);
  return d;
}

topo::NodeNameMap node_name_map(const FatTreeDesign& design) {
  topo::NodeNameMap m;
  for (const FatTreeSwitch& s : design.switches) m.add(s.guid, s.name);
  return m;
}

std::string describe(const FatTreeDesign& d, const std::string& line_prefix) {
  const FatTreeShape& sh = d.shape;
  const FatTreeSpec& sp = d.spec;
  // With planes every line but the last counts one plane.
  const size_t planes = sp.planes > 1 ? static_cast<size_t>(sp.planes) : 1;
  const size_t switches = d.switches.size() / planes;
  const long host_cables = static_cast<long>(d.hcas.size() / planes);
  const long leaf_spine = static_cast<long>(sh.pods) * sh.leaves_per_pod * sh.spines_per_pod * sh.leaf_spine_cables;
  const long spine_core = static_cast<long>(sh.pods) * sh.spines_per_pod * sh.cores_per_plane * sh.spine_core_cables;
  std::string out;
  if (sh.tiers == 3)
    out +=
        line_prefix + fmt::format("3-tier fat tree, radix {}: {} pods x ({} leaf + {} spine), {} core = {} switches\n",
                                  sh.radix, sh.pods, sh.leaves_per_pod, sh.spines_per_pod, sh.cores, switches);
  else
    out += line_prefix + fmt::format("2-tier fat tree, radix {}: {} leaf + {} spine = {} switches\n", sh.radix,
                                     sh.leaves_per_pod, sh.spines_per_pod, switches);
  const int hcas_per_host = planes > 1 ? 1 : sp.hcas_per_host;
  out += line_prefix + fmt::format("{} hosts x {} HCAs = {} HCAs, {}, {}\n", sp.hosts, hcas_per_host, host_cables,
                                   sp.rail_optimized ? "rail-optimised" : "hosts packed on leaves",
                                   topo::to_string(sp.rate));
  out += line_prefix +
         fmt::format("cables: {} HCA-leaf, {} leaf-spine ({} per pair)", host_cables, leaf_spine, sh.leaf_spine_cables);
  if (sh.tiers == 3)
    out += fmt::format(", {} spine-core ({} per pair, {} cores per plane)", spine_core, sh.spine_core_cables,
                       sh.cores_per_plane);
  out += fmt::format(" = {} cables\n", d.wiring.cables.size() / planes);
  if (planes > 1)
    out += line_prefix +
           fmt::format(
               "{} planes, one per rail, each its own subnet (the counts above are per plane): HCA mlx5_k of "
               "every host in plane k+1, its subnet manager on {} mlx5_k; {} switches, {} HCAs, {} cables\n",
               planes, d.hcas.front().host, d.switches.size(), d.hcas.size(), d.wiring.cables.size());
  return out;
}

std::string to_csv(const FatTreeDesign& d) {
  return "# wiring plan written by ibburn wiring gen fat-tree\n" + describe(d, "# ") + to_csv(d.wiring);
}

}  // namespace ibburn::wiring
