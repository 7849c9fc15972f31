#include <gtest/gtest.h>

#include <set>

#include <fmt/format.h>

#include "burn/control_protocol.h"

using namespace ibburn;
using namespace ibburn::burn;
using nlohmann::json;

namespace {

// One of each message, every field set to something other than its default.
std::vector<Message> one_of_each() {
  Hello hello;
  hello.rank = 3;
  hello.token = "00c0ffee";
  hello.endpoint = {"node0002", "mlx5_1:1", "10.0.0.2", 0x0002c903000a0b0cull, 17, "InfiniBand", 200, 1};
  HostCheckAnswer check;
  check.ok = false;
  check.error = "no sysfs";
  check.findings.push_back(
      {FindingKind::PcieDegraded, Severity::Error, "mlx5_1 runs at x8", {{"node0002", 0}}, {{"width", 8}}});
  check.pairing = json::array({{{"gpu", 0}, {"gpu_bdf", "0000:17:00.0"}, {"hca", "mlx5_1"}}});
  hello.host_check = check;
  hello.error = "no active port";
  Report report{2, {}, {}};
  SideReport side;
  side.flow = 4;
  side.from = 1;
  side.to = 3;
  side.rx = true;
  side.bytes = 123456789;
  side.seconds = 2.5;
  side.samples_gbps = {98.5, 99.25};
  side.errors = 1;
  side.mismatches = 2;
  side.failure = "rank 3: peer closed the connection";
  report.sides.push_back(side);
  report.port_counters = {{"retry_exceeded_err", 3}};
  return {hello,
          Setup{2, {{4, 1, 3, true, 8}, {5, 3, 0, false, 1}}},
          Addresses{2, {{4, "0a0b"}}, {{5, "rank 3: no memory"}}, {5}, {{"sent_pkts", 10}, {"rcvd_seq_err", 0}}},
          Connect{2, {{4, "0c0d"}}, {{5, "rank 0: set-up failed"}}},
          Connected{2, {{4, "rank 3: connection refused"}}},
          Start{2, 60000},
          Sample{2, 1.5, {{4, 1, 3, true, 1000, 97.5}}},
          report,
          Stop{2},
          Done{}};
}

json as_json(const Message& m) {
  json j;
  to_json(j, m);
  return j;
}

std::string refusal(const json& j) {
  try {
    message_from_json(j);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ControlProtocol, EveryMessageRoundTripsThroughItsText) {
  std::set<std::string> types;
  for (const Message& m : one_of_each()) {
    const json sent = as_json(m);
    const Message read = message_from_json(json::parse(sent.dump()));
    EXPECT_EQ(read.index(), m.index()) << sent;
    EXPECT_EQ(as_json(read), sent);
    EXPECT_EQ(sent.at("type"), message_type(m));
    types.insert(message_type(m));
  }
  EXPECT_EQ(types.size(), std::variant_size_v<Message>);
}

TEST(ControlProtocol, TypedFieldsSurviveTheRoundTrip) {
  auto msgs = one_of_each();
  const auto hello = std::get<Hello>(message_from_json(as_json(msgs[0])));
  EXPECT_EQ(hello.endpoint.port_guid, 0x0002c903000a0b0cull);
  EXPECT_EQ(hello.endpoint.lid, 17);
  ASSERT_TRUE(hello.host_check);
  EXPECT_EQ(hello.host_check->findings.at(0).ports.at(0).node, "node0002");
  EXPECT_EQ(*hello.error, "no active port");
  const auto addresses = std::get<Addresses>(message_from_json(as_json(msgs[2])));
  EXPECT_EQ(addresses.addrs.at(4), "0a0b");
  EXPECT_EQ(addresses.failures.at(5), "rank 3: no memory");
  const auto report = std::get<Report>(message_from_json(as_json(msgs[7])));
  EXPECT_EQ(report.sides.at(0).samples_gbps, (std::vector<double>{98.5, 99.25}));
  EXPECT_EQ(report.sides.at(0).failure, "rank 3: peer closed the connection");
  EXPECT_EQ(stage_of(report), 2);
  EXPECT_EQ(stage_of(msgs[1]), std::nullopt);  // rank 0's Setup: not a reply
}

TEST(ControlProtocol, BootCarriesEitherTheChannelOrTheReasonNothingRuns) {
  Boot ok{4242, {"10.0.0.1", "127.0.0.1"}, "abc", std::nullopt, 0};
  const Boot read_ok = json(ok).get<Boot>();
  EXPECT_EQ(read_ok.port, 4242);
  EXPECT_EQ(read_ok.addresses, ok.addresses);
  EXPECT_FALSE(read_ok.error);
  Boot bad{0, {}, "", "plan.json:3: unknown rank 9", 2};
  const Boot read_bad = json(bad).get<Boot>();
  EXPECT_EQ(*read_bad.error, "plan.json:3: unknown rank 9");
  EXPECT_EQ(read_bad.code, 2);
  EXPECT_THROW(json({{"port", 1}, {"token", "t"}}).get<Boot>(), ProtocolError);
}

TEST(ControlProtocol, EachMissingRequiredFieldIsRefusedByName) {
  const std::set<std::string> optional{"host_check", "error"};
  int refused = 0;
  for (const Message& m : one_of_each()) {
    const json full = as_json(m);
    for (const auto& [field, value] : full.items()) {
      if (field == "type" || optional.count(field)) continue;
      json j = full;
      j.erase(field);
      const std::string why = refusal(j);
      EXPECT_EQ(why, fmt::format("control message \"{}\": field \"{}\": missing", message_type(m), field));
      ++refused;
    }
  }
  EXPECT_GE(refused, 20);
}

TEST(ControlProtocol, NestedFieldsAreNamedWithTheirPath) {
  auto msgs = one_of_each();
  json setup = as_json(msgs[1]);
  setup["flows"][1].erase("src");
  EXPECT_EQ(refusal(setup), "control message \"setup\": field \"flows[1].src\": missing");
  json report = as_json(msgs[7]);
  report["sides"][0]["bytes"] = "lots";
  EXPECT_EQ(refusal(report), "control message \"report\": field \"sides[0].bytes\": wrong type (string)");
  json hello = as_json(msgs[0]);
  hello["endpoint"].erase("host");
  EXPECT_EQ(refusal(hello), "control message \"hello\": field \"endpoint.host\": missing");
  json addresses = as_json(msgs[2]);
  addresses["addrs"]["four"] = "0a";
  EXPECT_EQ(refusal(addresses), "control message \"addresses\": field \"addrs\": key \"four\" is not a flow id");
}

TEST(ControlProtocol, UnknownOrUntypedMessagesAreRefused) {
  EXPECT_EQ(refusal({{"type", "launch"}, {"stage", 1}}), "control message \"launch\": unknown type");
  EXPECT_EQ(refusal({{"stage", 1}}), "control message: field \"type\": missing or not a string");
  EXPECT_EQ(refusal(json::array()), "control message: expected an object, got array");
}
