// `ibburn topo discover` against simulated fabrics: what it finds equals what the netfile
// (or the generated wiring) says, link by link with width and speed; libibnetdisc cache
// files load to the same fabric; hop limits mark unreached peers.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <tuple>

#include "common/error.h"
#include "tests/support/sim_fabric.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"
#include "topo/fabric_io.h"
#include "topo/ibnd_fabric.h"
#include "topo/node_name_map.h"
#include "wiring/wiring.h"

namespace ibburn::testing {
namespace {
namespace fs = std::filesystem;
using topo::Fabric;
using topo::LinkRate;
using topo::PortEnd;

const std::string kIbburn = ibburn::testing::binary_dir() + "/ibburn";

struct Cable {
  std::string a;
  int a_port;
  std::string b;
  int b_port;
  std::string rate;  // as ibsim reads it, e.g. "4xHDR"
};

struct NodeSpec {
  bool is_switch;
  std::string name;
  int ports;
  uint64_t guid;
};

// An ibsim netfile for `nodes` wired by `cables` (each cable written from both ends).
std::string netfile(const std::vector<NodeSpec>& nodes, const std::vector<Cable>& cables) {
  std::ostringstream out;
  for (const NodeSpec& n : nodes) {
    out << (n.is_switch ? "switchguid=0x" : "caguid=0x") << std::hex << n.guid << std::dec << "\n"
        << (n.is_switch ? "Switch " : "Hca ") << n.ports << " \"" << n.name << "\"\n";
    for (const Cable& c : cables) {
      if (c.a == n.name) out << "[" << c.a_port << "] \"" << c.b << "\"[" << c.b_port << "] # lid 0 " << c.rate << "\n";
      if (c.b == n.name) out << "[" << c.b_port << "] \"" << c.a << "\"[" << c.a_port << "] # lid 0 " << c.rate << "\n";
    }
    out << "\n";
  }
  return out.str();
}

class DiscoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!SimFabric::available()) GTEST_SKIP() << "ibsim/opensm/umad2sim not installed";
    if (!fs::exists(kIbburn)) GTEST_SKIP() << kIbburn << " not built";
  }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path p = dir_ / name;
    std::ofstream(p) << text;
    return p.string();
  }

  // Runs `ibburn topo discover` under the fixture and loads the snapshot it wrote.
  Fabric discover(const SimFabric& sim, std::vector<std::string> extra = {}) {
    const std::string out = (dir_ / "discovered.json").string();
    std::vector<std::string> argv{kIbburn, "topo", "discover", "-o", out};
    argv.insert(argv.end(), extra.begin(), extra.end());
    CommandResult r = sim.run(argv, std::chrono::seconds(300));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return topo::load_fabric_file(out);
  }

  TempDir tmp_;
  const fs::path dir_ = tmp_.path();
};

// Every cable is there, joining the right ports, at the right width and speed; no others.
// Without an SM ports stay in Init, so `active` is only asked for when opensm ran.
void expect_matches(const Fabric& f, const std::vector<Cable>& cables, bool active = false) {
  EXPECT_EQ(f.links().size(), cables.size());
  for (const Cable& c : cables) {
    auto a = f.find_name(c.a), b = f.find_name(c.b);
    ASSERT_TRUE(a && b) << "missing " << c.a << " or " << c.b;
    const topo::Port* pa = f.node(*a).port(c.a_port);
    ASSERT_NE(pa, nullptr) << c.a << "[" << c.a_port << "]";
    EXPECT_EQ(pa->remote, (PortEnd{*b, c.b_port})) << c.a << "[" << c.a_port << "] -> " << c.b;
    EXPECT_EQ(to_string(pa->active), c.rate) << c.a << "[" << c.a_port << "]";
    EXPECT_EQ(to_string(f.port(PortEnd{*b, c.b_port}).active), c.rate) << c.b << "[" << c.b_port << "]";
    if (active) {
      EXPECT_EQ(pa->state, topo::PortState::Active);
    }
  }
}

const std::vector<NodeSpec> kRateNodes{
    {true, "sw1", 8, 0x10}, {true, "sw2", 8, 0x20}, {false, "h1", 2, 0x100}, {false, "h2", 1, 0x200}};
// Every width and every speed Debian's ibsim 0.10 can simulate.
const std::vector<Cable> kRateCables{{"sw1", 1, "h1", 1, "4xHDR"},  {"sw1", 2, "h2", 1, "1xEDR"},
                                     {"sw1", 3, "sw2", 3, "4xFDR"}, {"sw1", 4, "sw2", 4, "12xQDR"},
                                     {"sw1", 5, "sw2", 5, "2xHDR"}, {"sw1", 6, "sw2", 6, "8xDDR"},
                                     {"sw1", 7, "sw2", 8, "4xSDR"}};

TEST_F(DiscoverTest, EveryLinkWidthAndSpeedOfTheNetfile) {
  SimFabric sim(write("net", netfile(kRateNodes, kRateCables)));
  Fabric f = discover(sim);
  EXPECT_EQ(f.switch_count(), 2u);
  EXPECT_EQ(f.ca_count(), 2u);
  expect_matches(f, kRateCables, /*active=*/true);
  for (const NodeSpec& n : kRateNodes) {
    auto id = f.find_name(n.name);
    ASSERT_TRUE(id);
    EXPECT_EQ(f.node(*id).guid, n.guid) << n.name;
    EXPECT_EQ(f.node(*id).num_ports, n.ports) << n.name;
  }
  // opensm ran: every HCA port and every switch has a LID.
  EXPECT_NE(f.node(*f.find_name("h2")).ports[1].lid, 0);
  EXPECT_NE(f.node(*f.find_name("sw2")).ports[3].lid, 0);
  // h1's second port has no cable: not linked, not "unreached".
  const topo::Port& spare = f.node(*f.find_name("h1")).ports[2];
  EXPECT_FALSE(spare.linked());
  EXPECT_FALSE(spare.peer_unreached);
}

TEST_F(DiscoverTest, UnlinkedCableIsGoneFromTheNextDiscovery) {
  SimOptions no_sm;
  no_sm.opensm = false;
  SimFabric sim(write("net", netfile(kRateNodes, kRateCables)), no_sm);
  sim.console("Unlink \"sw1\"[4]");
  Fabric f = discover(sim);
  std::vector<Cable> left = kRateCables;
  left.erase(left.begin() + 3);
  EXPECT_EQ(f.links().size(), left.size());
  EXPECT_FALSE(f.node(*f.find_name("sw1")).ports[4].linked());
}

TEST_F(DiscoverTest, HopLimitMarksPortsWhosePeerWasNotReached) {
  // A chain sw1 - sw2 - ... - sw6 - h6: a one-hop discovery from sw1 cannot reach its end.
  std::vector<NodeSpec> nodes;
  std::vector<Cable> cables;
  for (int i = 1; i <= 6; ++i) {
    nodes.push_back({true, "sw" + std::to_string(i), 4, static_cast<uint64_t>(i)});
    if (i > 1) cables.push_back({"sw" + std::to_string(i - 1), 2, "sw" + std::to_string(i), 1, "4xHDR"});
  }
  nodes.push_back({false, "h6", 1, 0x60});
  cables.push_back({"sw6", 2, "h6", 1, "4xHDR"});
  SimOptions no_sm;
  no_sm.opensm = false;
  SimFabric sim(write("net", netfile(nodes, cables)), no_sm);
  Fabric full = discover(sim);
  expect_matches(full, cables);
  for (const auto& node : full.nodes())
    for (const auto& port : node.ports) EXPECT_FALSE(port.peer_unreached) << node.name;

  Fabric limited = discover(sim, {"--hops", "1"});
  ASSERT_LT(limited.size(), full.size());
  // Each cable from a discovered node: linked when its peer was reached, else unreached.
  size_t unreached = 0;
  for (const Cable& c : cables) {
    for (const auto& [from, from_port, to] : {std::tuple{c.a, c.a_port, c.b}, std::tuple{c.b, c.b_port, c.a}}) {
      auto id = limited.find_name(from);
      if (!id) continue;
      const topo::Port& port = limited.node(*id).ports[from_port];
      const bool reached = limited.find_name(to).has_value();
      EXPECT_EQ(port.linked(), reached) << from << "[" << from_port << "]";
      EXPECT_EQ(port.peer_unreached, !reached) << from << "[" << from_port << "]";
      unreached += port.peer_unreached;
    }
  }
  EXPECT_EQ(unreached, 1u);
}

// Same nodes, ports, LIDs, states, rates and links, matched by GUID.
void expect_same_fabric(const Fabric& a, const Fabric& b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto& na : a.nodes()) {
    auto idb = b.find_guid(na.guid);
    ASSERT_TRUE(idb) << na.description;
    const topo::Node& nb = b.node(*idb);
    EXPECT_EQ(na.type, nb.type);
    EXPECT_EQ(na.description, nb.description);
    EXPECT_EQ(na.num_ports, nb.num_ports);
    for (int p = 1; p <= na.num_ports; ++p) {
      const topo::Port& pa = na.ports[p];
      const topo::Port& pb = nb.ports[p];
      EXPECT_EQ(pa.lid, pb.lid) << na.description << "[" << p << "]";
      EXPECT_EQ(pa.state, pb.state) << na.description << "[" << p << "]";
      EXPECT_EQ(pa.active, pb.active) << na.description << "[" << p << "]";
      EXPECT_EQ(pa.linked(), pb.linked()) << na.description << "[" << p << "]";
      if (pa.linked() && pb.linked()) {
        EXPECT_EQ(a.node(pa.remote.node).guid, b.node(pb.remote.node).guid);
        EXPECT_EQ(pa.remote.port, pb.remote.port);
      }
    }
  }
}

TEST_F(DiscoverTest, CacheFileLoadsToTheLiveFabric) {
  SimFabric sim(write("net", netfile(kRateNodes, kRateCables)));
  const std::string cache = (dir_ / "fabric.cache").string();
  CommandResult r = sim.run({"ibnetdiscover", "--cache", cache}, std::chrono::seconds(300));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(topo::is_ibnd_cache(cache));
  Fabric from_cache = topo::load_ibnd_cache(cache);
  Fabric live = discover(sim);
  expect_same_fabric(from_cache, live);
  expect_matches(from_cache, kRateCables);
  // The generic loader recognises the format by its magic.
  expect_same_fabric(topo::load_fabric_file(cache), live);
}

// The own directed-route walk (`topo discover`) against libibnetdisc (`ibnetdiscover
// --cache`, loaded through the same decoder) on a fabric with parts that cannot be reached:
// a CA whose SMA drops every NodeInfo (its switch port trained, nothing answers) and a
// cable unlinked in ibsim. Same nodes, ports, states, rates, links and unreached ports.
TEST_F(DiscoverTest, SameFabricAsLibibnetdiscWithUnreachableParts) {
  std::vector<NodeSpec> nodes = kRateNodes;
  nodes.push_back({false, "h3", 1, 0x300});
  std::vector<Cable> cables = kRateCables;
  cables.push_back({"sw2", 1, "h3", 1, "4xHDR"});
  SimOptions options;
  options.opensm = false;
  options.sim_host = "h1";  // from a CA, as on a host
  SimFabric sim(write("net", netfile(nodes, cables)), options);
  sim.console("Error \"h3\"[1] 100 17");  // drop NodeInfo (attribute 17) at h3
  sim.console("Unlink \"sw1\"[6]");
  const std::string cache = (dir_ / "fabric.cache").string();
  CommandResult r = sim.run({"ibnetdiscover", "-t", "50", "--cache", cache}, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Fabric reference = topo::load_ibnd_cache(cache);
  Fabric walked = discover(sim, {"--timeout", "50ms", "--retries", "1"});
  expect_same_fabric(reference, walked);
  EXPECT_EQ(walked.links().size(), cables.size() - 2);
  size_t unreached = 0;
  for (const auto& n : reference.nodes()) {
    const topo::Node& w = walked.node(*walked.find_guid(n.guid));
    for (int p = 1; p <= n.num_ports; ++p) {
      EXPECT_EQ(n.ports[p].peer_unreached, w.ports[p].peer_unreached) << n.description << "[" << p << "]";
      unreached += w.ports[p].peer_unreached;
    }
  }
  EXPECT_EQ(unreached, 1u);  // sw2[1]: trained, h3 silent; sw1[6] is down, not unreached
  EXPECT_TRUE(walked.node(*walked.find_name("sw2")).ports[1].peer_unreached);
}

// Whether a switch's port 0 is base or enhanced comes from its SwitchInfo (ibnetdiscover
// prints it in each switch's header): the walk, libibnetdisc's cache and ibnetdiscover's own
// text agree switch by switch, and the written text says it as ibnetdiscover does.
TEST_F(DiscoverTest, BaseOrEnhancedPort0AsSwitchInfoSays) {
  const std::string net =
      "switchguid=0x10\nSwitch 4 \"leaf\" # \"leaf\" base port 0 lid 0 lmc 0\n"
      "[1] \"h1\"[1] # lid 0 4xHDR\n[3] \"spine\"[1] # lid 0 4xHDR\n\n"
      "switchguid=0x20\nSwitch 4 \"spine\" # \"spine\" enhanced port 0 lid 0 lmc 0\n"
      "[1] \"leaf\"[3] # lid 0 4xHDR\n\n"
      "caguid=0x100\nHca 1 \"h1\"\n[1] \"leaf\"[1] # lid 0 4xHDR\n";
  SimFabric sim(write("net", net));
  CommandResult text = sim.run({"ibnetdiscover"}, std::chrono::seconds(60));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  const Fabric reference = topo::parse_fabric_text(text.out, "ibnetdiscover");
  const std::string cache = (dir_ / "fabric.cache").string();
  ASSERT_EQ(sim.run({"ibnetdiscover", "--cache", cache}, std::chrono::seconds(60)).exit_code, 0);
  const Fabric cached = topo::load_ibnd_cache(cache);
  const Fabric walked = discover(sim);
  for (auto [name, base] : {std::pair{"leaf", true}, std::pair{"spine", false}}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(reference.node(*reference.find_name(name)).base_port0, base);
    EXPECT_EQ(cached.node(*cached.find_name(name)).base_port0, base);
    EXPECT_EQ(walked.node(*walked.find_name(name)).base_port0, base);
  }
  const std::string written = topo::to_ibnetdiscover_text(walked);
  EXPECT_NE(written.find("# \"leaf\" base port 0 lid"), std::string::npos) << written;
  EXPECT_NE(written.find("# \"spine\" enhanced port 0 lid"), std::string::npos) << written;
}

TEST(IbndCache, RejectsOtherFiles) {
  TempDir tmp;
  const std::string p = tmp.file("not-a-cache");
  std::ofstream(p) << "# not a cache\n";
  EXPECT_FALSE(topo::is_ibnd_cache(p));
  EXPECT_THROW(topo::load_ibnd_cache(p), InputError);
  // The right magic with nothing behind it: libibnetdisc refuses, we say so.
  std::ofstream(p, std::ios::binary).write("\x2b\x83\xe7\x8f\x01", 5);
  EXPECT_TRUE(topo::is_ibnd_cache(p));
  EXPECT_THROW(topo::load_ibnd_cache(p), InputError);
}

// A generated fat-tree: the discovered fabric (named by the generated node-name-map)
// has exactly the generated wiring's cables, each at its planned rate.
void check_generated(const fs::path& dir, const std::vector<std::string>& gen_args, std::chrono::seconds timeout) {
  const std::string prefix = (dir / "ft").string();
  std::vector<std::string> argv{kIbburn, "wiring", "gen", "fat-tree", "-o", prefix};
  argv.insert(argv.end(), gen_args.begin(), gen_args.end());
  std::string cmd;
  for (const auto& a : argv) cmd += "'" + a + "' ";
  ASSERT_EQ(std::system((cmd + "> /dev/null").c_str()), 0) << cmd;
  SimOptions options;
  options.opensm = false;  // discovery needs no SM; keeps large fabrics quick
  options.start_timeout = timeout;
  SimFabric sim(prefix + ".net", options);
  const std::string out = (dir / "discovered.json").string();
  CommandResult r = sim.run({kIbburn, "topo", "discover", "-o", out}, timeout);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Fabric f = topo::load_fabric_file(out);
  topo::NodeNameMap::load(prefix + ".node-name-map").apply(f);
  wiring::Wiring plan = wiring::load_wiring_csv(prefix + ".csv");
  EXPECT_EQ(f.links().size(), plan.cables.size());
  size_t mismatches = 0;
  for (const auto& c : plan.cables) {
    auto a = f.find_name(c.a.node), b = f.find_name(c.b.node);
    if (!a || !b) {
      ADD_FAILURE() << "not discovered: " << c.a.node << " or " << c.b.node;
      if (++mismatches > 10) break;
      continue;
    }
    const topo::Port* pa = f.node(*a).port(c.a.port);
    const bool ok = pa && pa->remote == PortEnd{*b, c.b.port} && (!c.rate || pa->active == *c.rate);
    if (!ok) {
      ADD_FAILURE() << c.a.node << "[" << c.a.port << "] - " << c.b.node << "[" << c.b.port << "]";
      if (++mismatches > 10) break;
    }
  }
}

TEST_F(DiscoverTest, GeneratedTwoTierFatTree) {
  check_generated(dir_, {"--tiers", "2", "--radix", "8", "--hosts", "8", "--hcas-per-host", "2", "--rate", "4xHDR"},
                  std::chrono::seconds(120));
}

TEST_F(DiscoverTest, GeneratedThreeTierFatTree) {
  check_generated(dir_, {"--tiers", "3", "--radix", "8", "--hosts", "16", "--hcas-per-host", "2", "--rate", "2xEDR"},
                  std::chrono::seconds(120));
}

TEST_F(DiscoverTest, GeneratedThreeTierFatTreeWith256Hcas) {
  check_generated(dir_, {"--tiers", "3", "--radix", "16", "--hosts", "64", "--hcas-per-host", "4", "--rate", "4xHDR"},
                  std::chrono::seconds(300));
}

TEST(DiscoverWithoutFabric, ExitsThreeWithAMessage) {
  if (!fs::exists(kIbburn)) GTEST_SKIP() << kIbburn << " not built";
  if (fs::exists("/sys/class/infiniband") && !fs::is_empty("/sys/class/infiniband"))
    GTEST_SKIP() << "this machine has InfiniBand devices";
  TempDir tmp;
  const std::string err = tmp.file("stderr");
  const std::string cmd = "env -u LD_PRELOAD '" + kIbburn + "' topo discover -o /dev/null 2> '" + err + "'";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  std::ifstream in(err);
  std::string msg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(msg.find("no InfiniBand device"), std::string::npos) << msg;
}

// ibsim's own example fabrics (ibsim-utils' net-examples, files ibburn did not write) give
// no node or port a GUID: ibsim numbers them itself. Loaded from the file they must have the
// GUIDs the live simulator of the same file answers with, node by node and port by port, with
// the same links, so that a file and a discovery of the fabric it describes agree.
TEST_F(DiscoverTest, IbsimsOwnExamplesLoadWithTheGuidsIbsimGivesThem) {
  const fs::path examples = "/usr/share/doc/ibsim-utils/net-examples";
  std::vector<fs::path> files;
  if (fs::exists(examples))
    for (const auto& e : fs::directory_iterator(examples))
      if (e.path().filename().string().starts_with("net")) files.push_back(e.path());
  ASSERT_FALSE(files.empty()) << examples << " has no net files (ibsim-utils installs them)";
  SimOptions no_sm;
  no_sm.opensm = false;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const Fabric loaded = topo::load_fabric_file(file.string());
    SimFabric sim(file.string(), no_sm);
    const Fabric live = discover(sim);
    ASSERT_EQ(loaded.size(), live.size());
    for (const auto& n : live.nodes()) {
      auto id = loaded.find_guid(n.guid);
      ASSERT_TRUE(id) << n.description << " 0x" << std::hex << n.guid;
      const topo::Node& m = loaded.node(*id);
      EXPECT_EQ(m.description, n.description);
      EXPECT_EQ(m.type, n.type) << n.description;
      ASSERT_EQ(m.num_ports, n.num_ports) << n.description;
      for (int p = 1; p <= n.num_ports; ++p) {
        EXPECT_EQ(m.ports[p].linked(), n.ports[p].linked()) << n.description << "[" << p << "]";
        // Discovery reads the GUIDs of the ports it walks through: the linked ones.
        if (!n.ports[p].linked() || !m.ports[p].linked()) continue;
        EXPECT_EQ(m.ports[p].guid, n.ports[p].guid) << n.description << "[" << p << "]";
        const PortEnd lr = m.ports[p].remote, nr = n.ports[p].remote;
        EXPECT_EQ(loaded.node(lr.node).guid, live.node(nr.node).guid) << n.description << "[" << p << "]";
        EXPECT_EQ(lr.port, nr.port) << n.description << "[" << p << "]";
      }
    }
  }
}

}  // namespace
}  // namespace ibburn::testing
