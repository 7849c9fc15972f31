#include "burn/verbs/verbs_settings.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "common/error.h"

namespace ibburn::burn::verbs {
namespace {

TEST(VerbsSettings, DefaultsAreTheNdrTuning) {
  const VerbsSettings s = parse_verbs_settings(TransportOptions{}, 0);
  EXPECT_EQ(s.qps, 4);
  EXPECT_EQ(s.message_size, 1u << 20);
  EXPECT_EQ(s.tx_depth, 64);  // 64 MiB in flight per QP
  EXPECT_EQ(s.signal_every, 32);
  EXPECT_EQ(s.post_list, 8);
  EXPECT_TRUE(s.relaxed_ordering);
  EXPECT_EQ(s.rx_depth(), 64 / 32 + 4);
  EXPECT_EQ(s.drain_limit, std::chrono::milliseconds(2000));
}

TEST(VerbsSettings, BytesInFlightAreBoundedBySizeNotWrCount) {
  EXPECT_EQ(default_tx_depth(4096), 128);     // small messages: the WR cap
  EXPECT_EQ(default_tx_depth(1u << 20), 64);  // 64 x 1 MiB
  EXPECT_EQ(default_tx_depth(3u << 20), 22);  // ceil(64 / 3)
  EXPECT_EQ(default_tx_depth(8u << 20), 8);   // 8 x 8 MiB, not 128 x 8 MiB = 1 GiB
  EXPECT_EQ(default_tx_depth(1u << 30), 8);   // at least 8 to keep the pipe full
  TransportOptions o;
  o.message_size = 8u << 20;
  const VerbsSettings s = parse_verbs_settings(o, 1);
  EXPECT_EQ(s.tx_depth, 8);
  EXPECT_EQ(s.signal_every, 8);  // never above the depth
}

TEST(VerbsSettings, FlowStreamsSetQpsUnlessTheQpsKnobIsGiven) {
  EXPECT_EQ(parse_verbs_settings(TransportOptions{}, 8).qps, 8);
  EXPECT_EQ(parse_verbs_settings(TransportOptions{}, 1).qps, 1);
  TransportOptions o;
  o.extra["qps"] = "2";
  EXPECT_EQ(parse_verbs_settings(o, 8).qps, 2);
}

TEST(VerbsSettings, KnobsAreRead) {
  TransportOptions o;
  o.message_size = 8u << 20;
  o.extra = {{"tx_depth", "256"}, {"signal_every", "64"},    {"post_list", "16"},
             {"gid_index", "3"},  {"relaxed_ordering", "0"}, {"drain_ms", "250"}};
  const VerbsSettings s = parse_verbs_settings(o, 1);
  EXPECT_EQ(s.message_size, 8u << 20);
  EXPECT_EQ(s.tx_depth, 256);
  EXPECT_EQ(s.signal_every, 64);
  EXPECT_EQ(s.post_list, 16);
  EXPECT_EQ(s.gid_index.value_or(-1), 3);
  EXPECT_FALSE(s.relaxed_ordering);
  EXPECT_EQ(s.drain_limit, std::chrono::milliseconds(250));
}

TEST(VerbsSettings, BadValuesNameTheKnob) {
  TransportOptions o;
  o.extra["tx_depth"] = "lots";
  try {
    parse_verbs_settings(o, 1);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tx_depth=lots"), std::string::npos);
    // The message names the flag a user types.
    EXPECT_EQ(std::string(e.what()).rfind("--opt:", 0), 0u) << e.what();
  }
  TransportOptions big;
  big.extra = {{"tx_depth", "16"}, {"signal_every", "32"}};  // must not exceed the depth
  EXPECT_THROW(parse_verbs_settings(big, 1), InputError);
  TransportOptions tiny;
  tiny.message_size = 8;
  EXPECT_THROW(parse_verbs_settings(tiny, 1), InputError);
}

TEST(VerbsSettings, PathKnobsDefaultToAMultiSwitchFabric) {
  const VerbsSettings s = parse_verbs_settings(TransportOptions{}, 0);
  EXPECT_FALSE(s.gid_index.has_value());  // chosen per host
  EXPECT_EQ(s.path.sl, 0);
  EXPECT_EQ(s.path.traffic_class, 0);
  EXPECT_EQ(s.path.pkey_index, 0);
  EXPECT_EQ(s.path.timeout, 18);
  EXPECT_EQ(s.path.retry_cnt, 7);
  TransportOptions o;
  o.extra = {{"sl", "3"}, {"tc", "106"}, {"pkey_index", "1"}, {"timeout", "20"}, {"retry_cnt", "5"}};
  const VerbsSettings t = parse_verbs_settings(o, 0);
  EXPECT_EQ(t.path.sl, 3);
  EXPECT_EQ(t.path.traffic_class, 106);
  EXPECT_EQ(t.path.pkey_index, 1);
  EXPECT_EQ(t.path.timeout, 20);
  EXPECT_EQ(t.path.retry_cnt, 5);
}

TEST(VerbsSettings, PathKnobsOutOfRangeNameTheirRange) {
  for (const auto& [knob, value, range] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"sl", "16", "0 to 15"},
           {"tc", "256", "0 to 255"},
           {"pkey_index", "-1", "0 to 65535"},
           {"timeout", "0", "1 to 31"},  // 0 waits forever: a dead peer would never show
           {"retry_cnt", "8", "0 to 7"},
           {"gid_index", "256", "0 to 255"}}) {
    TransportOptions o;
    o.extra[knob] = value;
    try {
      parse_verbs_settings(o, 0);
      ADD_FAILURE() << knob << "=" << value << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(knob + "=" + value + ": expected an integer from " + range),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(VerbsSettings, RunHeaderStatesThePath) {
  const nlohmann::json d = path_settings_json({});
  EXPECT_EQ(d.at("gid_index"), "auto");
  EXPECT_EQ(d.at("timeout"), 18);
  EXPECT_EQ(d.at("hop_limit"), 255);
  const nlohmann::json t = path_settings_json({{"gid_index", "3"}, {"sl", "1"}, {"tc", "104"}, {"pkey_index", "2"}});
  EXPECT_EQ(t.at("gid_index"), 3);
  EXPECT_EQ(t.at("sl"), 1);
  EXPECT_EQ(t.at("tc"), 104);
  EXPECT_EQ(t.at("pkey_index"), 2);
  EXPECT_EQ(t.at("retry_cnt"), 7);
  EXPECT_NE(path_settings_json({{"sl", "x"}}).at("error").get<std::string>().find("sl=x"), std::string::npos);
}

}  // namespace
}  // namespace ibburn::burn::verbs
