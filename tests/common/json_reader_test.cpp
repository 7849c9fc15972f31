// The field-reading rules (common/json_reader.h) over both trees: the same text read through
// nlohmann (common/json_fields.h) and simdjson (common/json_document.h) fails the same way,
// in the wording its documents use.
#include "common/json_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "common/json_document.h"
#include "common/json_fields.h"

using namespace ibburn;

namespace {

const char* const kText = R"({"name": "leaf1", "lid": 70000, "up": true, "rate": 2.5, "big": 18446744073709551615,
  "neg": -3, "ports": [{"n": 1}, {"n": "two"}], "peer": {"node": {"id": 5}}})";

// What reading `read` fails with, through each tree.
struct Failures {
  std::string nlohmann, simdjson;
};

template <class Read>
Failures fail_both(Read read) {
  Failures out;
  const nlohmann::json j = nlohmann::json::parse(kText);
  try {
    read(JsonFields(
        j, [](const std::string& place, const std::string& what) { throw std::runtime_error(place + ": " + what); }));
  } catch (const std::runtime_error& e) {
    out.nlohmann = e.what();
  }
  const JsonDocument doc(kText, "t.json");
  try {
    read(doc.object());
  } catch (const InputError& e) {
    out.simdjson = e.what();
  }
  return out;
}

TEST(JsonReader, ReadsTheSameValuesThroughBothTrees) {
  const nlohmann::json j = nlohmann::json::parse(kText);
  const JsonFields f(j, [](const std::string&, const std::string& what) { throw std::runtime_error(what); });
  const JsonDocument doc(kText, "t.json");
  const JsonObject o = doc.object();
  EXPECT_EQ(f.get<std::string>("name"), "leaf1");
  EXPECT_EQ(o.get<std::string>("name"), "leaf1");
  EXPECT_EQ(f.get<int>("lid"), 70000);
  EXPECT_EQ(o.get<int64_t>("lid"), 70000);
  EXPECT_TRUE(f.get<bool>("up") && o.get<bool>("up"));
  EXPECT_DOUBLE_EQ(f.get<double>("rate"), 2.5);
  EXPECT_DOUBLE_EQ(o.get<double>("rate"), 2.5);
  EXPECT_EQ(f.get<uint64_t>("big"), UINT64_MAX);
  EXPECT_EQ(o.get<uint64_t>("big"), UINT64_MAX);
  EXPECT_EQ(f.optional<int>("absent"), std::nullopt);
  EXPECT_EQ(o.optional<int64_t>("absent", 0, 1), std::nullopt);
  const JsonFields fp = f.object("peer");
  const JsonObject op = o.object("peer");
  EXPECT_EQ(fp.object("node").get<int>("id"), 5);
  EXPECT_EQ(op.object("node").get<int>("id"), 5);
  int ports = 0;
  o.each_object("ports", [&](const JsonObject&) { ++ports; });
  EXPECT_EQ(ports, 2);
  EXPECT_EQ(f.objects("ports").size(), 2u);
}

TEST(JsonReader, MissingFieldsNameTheirPlace) {
  const Failures f = fail_both([](const auto& r) {
    const auto peer = r.object("peer");  // a child names its place through its parent, kept alive
    peer.object("node").template get<int>("port");
  });
  EXPECT_EQ(f.nlohmann, "peer.node.port: missing");
  EXPECT_EQ(f.simdjson, "t.json: peer.node.port: missing");
}

TEST(JsonReader, ArrayElementsNameTheirIndex) {
  const Failures f =
      fail_both([](const auto& r) { r.each_object("ports", [](const auto& port) { port.template get<int>("n"); }); });
  EXPECT_EQ(f.nlohmann, "ports[1].n: wrong type (string)");
  EXPECT_EQ(f.simdjson, "t.json: ports[1].n: must be an integer");
}

TEST(JsonReader, WrongTypesInEachWording) {
  auto both = [](auto read) { return fail_both(read); };
  Failures f = both([](const auto& r) { r.template get<bool>("name"); });
  EXPECT_EQ(f.nlohmann, "name: wrong type (string)");
  EXPECT_EQ(f.simdjson, "t.json: name: must be true or false");
  f = both([](const auto& r) { r.template get<std::string>("up"); });
  EXPECT_EQ(f.nlohmann, "up: wrong type (boolean)");
  EXPECT_EQ(f.simdjson, "t.json: up: must be a string");
  f = both([](const auto& r) { r.template get<uint32_t>("neg"); });
  EXPECT_EQ(f.nlohmann, "neg: wrong type (number)");
  EXPECT_EQ(f.simdjson, "t.json: neg: must be a non-negative integer");
  f = both([](const auto& r) { r.template get<int>("rate"); });
  EXPECT_EQ(f.nlohmann, "rate: wrong type (number)");
  EXPECT_EQ(f.simdjson, "t.json: rate: must be an integer");
  f = both([](const auto& r) { r.object("name"); });
  EXPECT_EQ(f.nlohmann, "name: expected an object");
  EXPECT_EQ(f.simdjson, "t.json: name: must be an object");
  f = both([](const auto& r) { r.array("peer"); });
  EXPECT_EQ(f.nlohmann, "peer: expected an array");
  EXPECT_EQ(f.simdjson, "t.json: peer: must be an array");
}

TEST(JsonReader, IntegersOutsideTheirRangeFailInsteadOfWrapping) {
  Failures f = fail_both([](const auto& r) { r.template get<uint16_t>("lid"); });
  EXPECT_EQ(f.nlohmann, "lid: 70000 is outside 0..65535");
  EXPECT_EQ(f.simdjson, "t.json: lid: 70000 is outside 0..65535");
  f = fail_both([](const auto& r) { r.template get<int64_t>("lid", 0, 0xffff); });
  EXPECT_EQ(f.simdjson, "t.json: lid: 70000 is outside 0..65535");
  // Above INT64_MAX a signed read names the largest value it can hold.
  f = fail_both([](const auto& r) { r.template get<int64_t>("big", 0, 10); });
  EXPECT_EQ(f.nlohmann, "big: 9223372036854775807 is outside 0..10");
  EXPECT_EQ(f.simdjson, "t.json: big: 9223372036854775807 is outside 0..10");
}

TEST(JsonReader, TheTopLevelMustBeAnObject) {
  const nlohmann::json j = nlohmann::json::array();
  try {
    const JsonFields fields(
        j, [](const std::string& place, const std::string& what) { throw std::runtime_error(place + what); });
    FAIL() << "an array was read as an object";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "expected an object");
  }
  const JsonDocument doc("[1]", "t.json");
  try {
    doc.object();
    FAIL() << "an array was read as an object";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "t.json: must be an object");
  }
}

}  // namespace
