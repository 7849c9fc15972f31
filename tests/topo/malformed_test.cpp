// Every way a fabric file can be wrong gives an InputError naming the line and the reason.
#include <gtest/gtest.h>

#include "common/error.h"
#include "fabric_expect.h"
#include "topo/fabric_io.h"

using namespace ibburn;
using namespace ibburn::topo;
using namespace ibburn::topo::testing;

namespace {

struct Case {
  const char* name;
  std::string text;
  FabricFormat format;
  int line;
  std::string reason;
};

void expect_error(const Case& c) {
  SCOPED_TRACE(c.name);
  try {
    parse_fabric_text(c.text, "bad.txt", c.format);
    ADD_FAILURE() << "no error for " << c.name;
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.txt");
    EXPECT_EQ(e.line(), c.line);
    EXPECT_EQ(e.reason(), c.reason);
    EXPECT_EQ(e.code(), kExitInput);
    std::string where = c.line > 0 ? "bad.txt:" + std::to_string(c.line) + ": " : "bad.txt: ";
    EXPECT_EQ(std::string(e.what()), where + c.reason);
  }
}

constexpr auto kText = FabricFormat::IbnetdiscoverText;
constexpr auto kJson = FabricFormat::Json;
constexpr auto kAuto = FabricFormat::Auto;

}  // namespace

TEST(FabricMalformed, MissingFileNamesIt) {
  try {
    load_fabric_file("/nonexistent/fabric.topo");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/fabric.topo");
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.reason().rfind("cannot open", 0), 0u) << e.reason();
  }
}

TEST(FabricMalformed, ValidBaseLoads) {
  Fabric f = parse_fabric_text(kSwitch + kCa, "good.txt");
  EXPECT_EQ(f.links().size(), 1u);
  // Other spellings of the record keywords: ibsim's Hca, Rtr for routers.
  Fabric g = parse_fabric_text(
      "Hca\t1 \"H-0000000000000001\"\n[1]\t\"R-0000000000000002\"[1]\n\n"
      "Rtr\t1 \"R-0000000000000002\"\n[1]\t\"H-0000000000000001\"[1]\n",
      "spellings.txt");
  EXPECT_EQ(g.node(0).type, NodeType::CA);
  EXPECT_EQ(g.node(1).type, NodeType::Router);
  EXPECT_EQ(g.links().size(), 1u);
}

TEST(FabricMalformed, IbnetdiscoverTextErrorsNameTheLine) {
  const Case cases[] = {
      {"empty", "", kText, 0, "no node records (Switch/Ca/Rt lines) found: this is not ibnetdiscover output"},
      {"comments only", "#\n# Topology file\n", kAuto, 0,
       "no node records (Switch/Ca/Rt lines) found: this is not ibnetdiscover output"},
      {"unknown line", kSwitch + "...omitted\n", kText, 5,
       "unrecognised line '...omitted' (expected a node record, a [port] line, a key=value line or a # comment)"},
      {"port line without record", "[1]\t\"H-0000000000000020\"[1]\n", kText, 1,
       "port line outside a node record (no Switch/Ca line above it)"},
      {"bad port count", "Switch\tmany \"S-0000000000000010\"\n", kText, 1,
       "port count 'many' is not a number from 1 to 255"},
      {"zero ports", "Ca\t0 \"H-0000000000000010\"\n", kText, 1, "port count '0' is not a number from 1 to 255"},
      {"missing id", "Switch\t4 S-10\n", kText, 1, "expected the node id in quotes after the port count"},
      {"redacted id", "Switch\t4 \"S-9c05<redacted>\"\n", kText, 1,
       "node id 'S-9c05<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the real GUIDs)"},
      {"id type", "Ca\t1 \"S-0000000000000010\"\n", kText, 1,
       "node id \"S-0000000000000010\" names a Switch but the record is a CA"},
      {"guid line disagrees", "switchguid=0x11\nSwitch\t4 \"S-0000000000000010\"\n", kText, 2,
       "node id \"S-0000000000000010\" disagrees with switchguid=0x11 at line 1"},
      {"guid line type", "caguid=0x10\nSwitch\t4 \"S-0000000000000010\"\n", kText, 2,
       "the caguid= line at line 1 does not belong to a Switch record"},
      // A switch or CA with neither gets the GUID ibsim gives it (topo_discover_test); a router, none.
      {"no router guid", "Rt\t2 \"router1\"\n", kText, 1,
       "node \"router1\" has no GUID: add an rtguid= line before it (ibsim numbers no router)"},
      {"bad sysimgguid", "sysimgguid=0xfc6a1c0300xxxxxx\n", kText, 1,
       "sysimgguid '0xfc6a1c0300xxxxxx' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the real "
       "GUIDs)"},
      {"bad devid", "devid=0xzz\n", kText, 1, "devid value '0xzz' is not a hexadecimal number"},
      {"unclosed port guid", "switchguid=0x10(10\n", kText, 1, "unclosed '(' in 'switchguid=0x10(10'"},
      {"second record", kSwitch + "Switch\t4 \"S-0000000000000010\"\n", kText, 5,
       "node \"S-0000000000000010\" has a second record (the first is at line 2)"},
      {"port beyond count", "Switch\t4 \"S-0000000000000010\"\n[5]\t\"S-0000000000000011\"[1]\n", kText, 2,
       "port 5 is beyond the 4 ports the record at line 1 declares"},
      {"port twice",
       "Switch\t4 \"S-0000000000000010\"\n[1]\t\"S-0000000000000011\"[1]\n[1]\t\"S-0000000000000011\"[2]\n", kText, 3,
       "port 1 is listed twice in this record (also at line 2)"},
      {"port zero", "Switch\t4 \"S-0000000000000010\"\n[0]\t\"S-0000000000000011\"[1]\n", kText, 2,
       "port 0 is the switch management port and cannot be linked"},
      {"bad port number", "Switch\t4 \"S-0000000000000010\"\n[x]\t\"S-0000000000000011\"[1]\n", kText, 2,
       "local port '[x]' is not a port number in brackets from 0 to 255"},
      {"no remote port", "Switch\t4 \"S-0000000000000010\"\n[1]\t\"S-0000000000000011\"\n", kText, 2,
       "expected [port] after the linked node's id"},
      {"no remote id", "Switch\t4 \"S-0000000000000010\"\n[1]\tS-11[1]\n", kText, 2,
       "expected the linked node's \"id\" after the port number"},
      {"redacted port guid", "Ca\t1 \"H-0000000000000010\"\n[1](b83f<redacted>) \t\"S-0000000000000011\"[1]\n", kText,
       2,
       "port GUID 'b83f<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the real GUIDs)"},
      {"redacted remote guid",
       "Switch\t4 \"S-0000000000000010\"\n[1]\t\"H-0000000000000011\"[1](946d<redacted>) \t\t# \"h\" lid 2 4xHDR\n",
       kText, 2,
       "linked port GUID '946d<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the real "
       "GUIDs)"},
      {"junk after link", "Switch\t4 \"S-0000000000000010\"\n[1]\t\"S-0000000000000011\"[1] junk\n", kText, 2,
       "unexpected 'junk' after the linked port"},
      {"bad rate", "Switch\t4 \"S-0000000000000010\"\n[1]\t\"S-0000000000000011\"[1]\t\t# \"x\" lid 2 fast\n", kText, 2,
       "expected a link rate such as 4xHDR after the LID, got 'fast'"},
      {"bad lid", "Switch\t4 \"S-0000000000000010\"\n[1]\t\"S-0000000000000011\"[1]\t\t# \"x\" lid 70000 4xHDR\n",
       kText, 2, "lid '70000' is out of range"},
      {"bad lmc", "Switch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 9\n", kText, 1,
       "lmc '9' is out of range"},
      {"truncated dump", kSwitch, kText, 3,
       "node \"H-0000000000000020\" ('h1 mlx5_0') is linked from here but has no record of its own: the dump is "
       "truncated or edited (--allow-partial loads the rest)"},
      {"remote port beyond count",
       "Switch\t4 \"S-0000000000000010\"\n[1]\t\"H-0000000000000020\"[2]\n\nCa\t1 \"H-0000000000000020\"\n", kText, 2,
       "port 2 of node \"H-0000000000000020\" does not exist: its record at line 4 declares 1 ports"},
      {"conflicting link", kSwitch + "Ca\t2 \"H-0000000000000020\"\n[1](21) \t\"S-0000000000000010\"[2]\n", kText, 6,
       "port \"H-0000000000000020\"[1] is linked to \"S-0000000000000010\"[1] by line 3, but this line links it to "
       "\"S-0000000000000010\"[2]"},
  };
  for (const Case& c : cases) expect_error(c);
}

TEST(FabricMalformed, PortsReportErrorsNameTheLine) {
  const std::string ok = "SW  1719 10 0x7cfe9003009ce5b0 4x EDR - CA   134  1 0x7cfe9003003b4bde ( 'a' - 'b' )\n";
  const Case cases[] = {
      {"type", ok + "CA   134  1 0x7cfe9003003b4bde 4x EDR - XX 1 1 0x1 ( 'a' - 'b' )\n", kText, 2,
       "node type 'XX' is not CA, SW or RT"},
      {"guid", ok + "SW  1719 11 0x7cfe9003009c<redacted> 4x EDR 'a'\n", kText, 2,
       "port GUID '0x7cfe9003009c<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the "
       "real GUIDs)"},
      {"rate", ok + "SW  1719 11 0x7cfe9003009ce5b0 4x XYZ 'a'\n", kText, 2,
       "expected a width and a speed such as \"4x EDR\", got '4x XYZ'"},
      {"port", ok + "SW  1719 0 0x7cfe9003009ce5b0 4x EDR 'a'\n", kText, 2, "port '0' is not a number from 1 to 255"},
      {"lid", ok + "SW  99999 1 0x7cfe9003009ce5b0 4x EDR 'a'\n", kText, 2,
       "LID '99999' is not a number from 0 to 65535"},
      {"names", ok + "SW  1719 11 0x7cfe9003009ce5b0 4x EDR - CA 1 1 0x2 'a'\n", kText, 2,
       "expected ( 'name' - 'peer name' ) after the peer, got ''a''"},
      {"tail", ok + "SW  1719 11 0x7cfe9003009ce5b0 4x EDR junk\n", kText, 2,
       "expected \"- <peer>\" or a quoted node name after the rate, got 'junk'"},
      {"type changes", ok + "CA  1719 2 0x7cfe9003009ce5b0 4x EDR 'a'\n", kText, 2,
       "GUID 0x7cfe9003009ce5b0 is a Switch on an earlier line but a CA here"},
  };
  for (const Case& c : cases) expect_error(c);
}

TEST(FabricMalformed, JsonErrorsNameTheLineOrThePath) {
  const std::string head = "{\"format\": \"ibburn-fabric\", \"version\": 1,\n\"nodes\": [\n";
  const std::string node =
      "  {\"type\": \"Switch\", \"guid\": \"0x10\", \"num_ports\": 4, \"ports\": [{\"number\": 1, \"active\": "
      "\"4xNDR\"}]},\n"
      "  {\"type\": \"CA\", \"guid\": \"0x20\", \"num_ports\": 1}\n";
  const Case cases[] = {
      {"syntax", head + node + "],\n\"links\": [[0, 1, 1, 1],]\n}\n", kAuto, 6,
       "invalid JSON: syntax error while parsing value - unexpected ']'; expected '[', '{', or a literal"},
      {"number overflow", "{\"format\": \"ibburn-fabric\", \"version\": 1e999}", kJson, 1,
       "version: number '1e999' is out of range"},
      {"not an object", "[1]", kJson, 0, "the top level must be an object"},
      {"format", "{\"format\": \"other\"}", kJson, 0,
       "format: must be \"ibburn-fabric\" (this is not an ibburn fabric snapshot)"},
      {"version", "{\"format\": \"ibburn-fabric\", \"version\": 2, \"nodes\": []}", kJson, 0,
       "version: is 2; this ibburn reads version 1"},
      {"guid", head + "{\"type\": \"CA\", \"guid\": \"0x9c05<redacted>\", \"num_ports\": 1}]}", kJson, 0,
       "nodes[0].guid: '0x9c05<redacted>' is not a 64-bit hexadecimal GUID (it looks redacted; ibburn needs the "
       "real GUIDs) (expected \"0x\" and 1 to 16 hex digits)"},
      {"type", head + "{\"type\": \"Hub\", \"guid\": \"0x1\", \"num_ports\": 1}]}", kJson, 0,
       "nodes[0].type: 'Hub' is not one of Unknown, CA, Switch, Router"},
      {"num_ports", head + "{\"type\": \"CA\", \"guid\": \"0x1\"}]}", kJson, 0, "nodes[0].num_ports: missing"},
      {"port number", head + "{\"type\": \"CA\", \"guid\": \"0x1\", \"num_ports\": 1, \"ports\": [{\"number\": 2}]}]}",
       kJson, 0, "nodes[0].ports[0].number: 2 is outside 0..1"},
      {"lid",
       head + "{\"type\": \"CA\", \"guid\": \"0x1\", \"num_ports\": 1, \"ports\": [{\"number\": 1, \"lid\": \"x\"}]}]}",
       kJson, 0, "nodes[0].ports[0].lid: must be an integer"},
      {"rate",
       head + "{\"type\": \"CA\", \"guid\": \"0x1\", \"num_ports\": 1, \"ports\": [{\"number\": 1, \"active\": "
              "\"4xFAST\"}]}]}",
       kJson, 0, "nodes[0].ports[0].active: '4xFAST' is not a rate such as \"4xNDR\" (\"?\" for an unknown part)"},
      {"state",
       head +
           "{\"type\": \"CA\", \"guid\": \"0x1\", \"num_ports\": 1, \"ports\": [{\"number\": 1, \"state\": \"Up\"}]}]}",
       kJson, 0, "nodes[0].ports[0].state: 'Up' is not one of Unknown, Down, Initialize, Armed, Active"},
      {"link shape", head + node + "], \"links\": [[0, 1, 1]]}", kJson, 0,
       "links[0]: must be [node, port, node, port] with node indexes into \"nodes\""},
      {"link node", head + node + "], \"links\": [[0, 1, 5, 1]]}", kJson, 0,
       "links[0]: node index 5 is not in \"nodes\" (0..1)"},
      {"link port", head + node + "], \"links\": [[0, 9, 1, 1]]}", kJson, 0,
       "links[0]: port 9 does not exist on node 0"},
      {"link twice", head + node + "], \"links\": [[0, 1, 1, 1], [0, 2, 1, 1]]}", kJson, 0,
       "links[1]: port 1 of node 1 is already linked by an earlier entry"},
  };
  for (const Case& c : cases) expect_error(c);
}
