// The counters snapshot codec: round trip, the versions it reads, and strictness (every
// missing or mistyped field refused, naming the file and the field's JSON path).
#include "counters/snapshot_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.h"

using namespace ibburn;
using namespace ibburn::counters;

namespace {

PortSample port(const std::string& node, int num, uint64_t guid = 0x10) {
  PortSample p;
  p.node = node;
  p.port = num;
  p.node_guid = guid;
  p.lid = 7;
  p.reachable = true;
  for (size_t i = 0; i < kCounterCount; ++i) {
    Counter c = counter_at(i);
    if (port_counters_bits(c)) p.counters.set(c, 0, port_counters_bits(c));
  }
  return p;
}

// The message parse_snapshot_json gives for `text` ("" when it reads).
std::string error_of(const std::string& text, const std::string& origin = "s.json") {
  try {
    parse_snapshot_json(text, origin);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A valid version-2 document of one port, as JSON to edit.
nlohmann::json one_port_document() {
  Snapshot s;
  s.time_ms = 5;
  s.ports = {port("sw1", 3)};
  return nlohmann::json::parse(snapshot_json_text(s));
}

}  // namespace

TEST(Snapshot, JsonRoundTripKeepsWidthsAndStates) {
  Snapshot s;
  s.time_ms = 1234;
  s.ports = {port("sw1", 3, 0xabc)};
  s.ports[0].counters.set(Counter::PortXmitData, 1ull << 40, 64);
  s.ports[0].state = topo::PortState::Init;
  s.ports[0].phys = topo::PhysState::LinkUp;
  s.ports[0].peer = PortRef{"h", 1};
  s.ports[0].node_type = topo::NodeType::Switch;
  Snapshot t = parse_snapshot_json(snapshot_json_text(s), "x");
  ASSERT_EQ(t.ports.size(), 1u);
  EXPECT_EQ(t.time_ms, 1234);
  const PortSample& p = t.ports[0];
  EXPECT_EQ(p.node_guid, 0xabcu);
  EXPECT_EQ(p.counters.get(Counter::PortXmitData), 1ull << 40);
  EXPECT_EQ(p.counters.bits[static_cast<size_t>(Counter::PortXmitData)], 64);
  EXPECT_EQ(p.counters.bits[static_cast<size_t>(Counter::LocalLinkIntegrityErrors)], 4);
  EXPECT_EQ(p.state, topo::PortState::Init);
  EXPECT_EQ(p.phys, topo::PhysState::LinkUp);
  EXPECT_EQ(p.node_type, topo::NodeType::Switch);
  ASSERT_TRUE(p.peer);
  EXPECT_EQ(p.peer->node, "h");
}

TEST(Snapshot, MalformedSnapshotIsAnInputError) {
  EXPECT_THROW(parse_snapshot_json(R"({"ports": 3})", "b.json"), ibburn::InputError);
  EXPECT_THROW(parse_snapshot_json(R"({"time_ms": 1, "ports": [{"node": "a", "port": 1,
                           "counters": {"Bogus": 1}}]})",
                                   "b.json"),
               ibburn::InputError);
}

TEST(Snapshot, WritesItsSchemaVersion) { EXPECT_EQ(one_port_document()["schema_version"], kSnapshotSchemaVersion); }

// What `counters --save` and `--json` wrote before schema_version existed (nlohmann's dump,
// keys sorted, the findings beside the ports): version 1, the same fields, read as is.
TEST(Snapshot, VersionOneFilesAreRead) {
  const Snapshot s = parse_snapshot_json(
      R"({"findings":[],"ports":[{"counters":{"PortXmitData":100,"SymbolErrorCounter":3},"extended":true,)"
      R"("lid":7,"node":"sw1","node_guid":"0x0000000000000abc","peer":{"node":"h1","port":1},"port":3,)"
      R"("port_guid":"0x0000000000000000","reachable":true,"type":"Switch"}],"time_ms":1234})",
      "old.json");
  ASSERT_EQ(s.ports.size(), 1u);
  EXPECT_EQ(s.time_ms, 1234);
  const PortSample& p = s.ports[0];
  EXPECT_EQ(p.node, "sw1");
  EXPECT_EQ(p.node_guid, 0xabcu);
  EXPECT_EQ(p.node_type, topo::NodeType::Switch);
  EXPECT_EQ(p.counters.get(Counter::SymbolErrorCounter), 3u);
  EXPECT_EQ(p.counters.bits[static_cast<size_t>(Counter::SymbolErrorCounter)], 16);
  EXPECT_EQ(p.counters.bits[static_cast<size_t>(Counter::PortXmitData)], 64);
  EXPECT_FALSE(p.counters.has(Counter::PortRcvErrors));
  ASSERT_TRUE(p.peer);
  EXPECT_EQ(p.peer->port, 1);
}

TEST(Snapshot, OtherVersionsAreRefusedNamingFileAndVersion) {
  nlohmann::json j = one_port_document();
  j["schema_version"] = 3;
  EXPECT_EQ(error_of(j.dump(), "new.json"),
            "new.json: schema_version: 3 is not a counters snapshot version this ibburn reads (1 to 2); a newer "
            "ibburn wrote it");
  j["schema_version"] = 0;
  EXPECT_EQ(error_of(j.dump(), "odd.json"),
            "odd.json: schema_version: 0 is not a counters snapshot version this ibburn reads (1 to 2)");
  j["schema_version"] = "2";
  EXPECT_EQ(error_of(j.dump()), "s.json: schema_version: must be an integer");
}

TEST(Snapshot, EveryMissingFieldIsNamed) {
  for (const char* field : {"time_ms", "ports"}) {
    nlohmann::json j = one_port_document();
    j.erase(field);
    EXPECT_EQ(error_of(j.dump()), std::string("s.json: ") + field + ": missing");
  }
  for (const char* field :
       {"node", "node_guid", "port_guid", "type", "lid", "port", "reachable", "counters", "extended"}) {
    nlohmann::json j = one_port_document();
    j["ports"][0].erase(field);
    EXPECT_EQ(error_of(j.dump()), std::string("s.json: ports[0].") + field + ": missing");
  }
  nlohmann::json j = one_port_document();
  j["ports"][0]["peer"] = {{"node", "h1"}};
  EXPECT_EQ(error_of(j.dump()), "s.json: ports[0].peer.port: missing");
}

TEST(Snapshot, MistypedFieldsAreNamed) {
  const auto with = [](const char* field, nlohmann::json value) {
    nlohmann::json j = one_port_document();
    j["ports"][0][field] = std::move(value);
    return error_of(j.dump());
  };
  EXPECT_EQ(with("lid", "x"), "s.json: ports[0].lid: must be an integer");
  EXPECT_EQ(with("lid", 70000), "s.json: ports[0].lid: 70000 is outside 0..65535");
  EXPECT_EQ(with("reachable", 1), "s.json: ports[0].reachable: must be true or false");
  EXPECT_EQ(with("node_guid", "abc"),
            "s.json: ports[0].node_guid: 'abc' is not a 64-bit hexadecimal GUID (expected \"0x\" and 1 to 16 hex "
            "digits)");
  EXPECT_EQ(with("state", "Up"), "s.json: ports[0].state: 'Up' is not one of Unknown, Down, Initialize, Armed, Active");
  EXPECT_EQ(with("ports", 1), "");  // an unknown field is not the reader's business
  EXPECT_EQ(with("counters", nlohmann::json{{"Bogus", 1}}),
            "s.json: ports[0].counters.Bogus: not a counter this ibburn knows (MAD field names, docs/counters.md)");
  EXPECT_EQ(with("counters", nlohmann::json{{"SymbolErrorCounter", -1}}),
            "s.json: ports[0].counters.SymbolErrorCounter: must be a non-negative integer");
  nlohmann::json j = one_port_document();
  j["ports"][0] = 7;
  EXPECT_EQ(error_of(j.dump()), "s.json: ports[0]: must be an object");
}

TEST(Snapshot, FindingsOnlyFileIsNotASnapshot) {
  EXPECT_EQ(error_of(R"({"time_ms": 1, "port_count": 20, "findings": []})", "out.json"),
            "out.json: holds findings only (`ibburn counters --json`), not a counters snapshot (`--save` writes one)");
}

TEST(Snapshot, SyntaxErrorsNameTheLine) {
  Snapshot s;
  s.ports = {port("sw1", 1), port("sw1", 2)};
  std::string text = snapshot_json_text(s);
  text.erase(text.rfind('}', text.rfind(']')));  // the last port's closing brace and what follows
  EXPECT_EQ(error_of(text).rfind("s.json:4: invalid JSON: ", 0), 0u) << error_of(text);
}

// Node descriptions come from the fabric: quotes, control characters and bytes that are not
// UTF-8 must still make a document every JSON reader accepts.
TEST(Snapshot, NamesAreEscapedAndInvalidUtf8Replaced) {
  Snapshot s;
  s.ports = {port("sw \"1\"\\\n\x01 caf\xc3\xa9 \xff", 1)};
  const std::string text = snapshot_json_text(s);
  EXPECT_EQ(nlohmann::json::parse(text)["ports"][0]["node"], "sw \"1\"\\\n\x01 caf\xc3\xa9 \xef\xbf\xbd");
  EXPECT_EQ(parse_snapshot_json(text, "x").ports[0].node, "sw \"1\"\\\n\x01 caf\xc3\xa9 \xef\xbf\xbd");
}
