// Field names and values against outputs captured on real clusters (the corpus).
#include "counters/perfquery_text.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/file_io.h"
#include "ibqueryerrors_output.h"
#include "tests/support/corpus.h"

using namespace ibburn;
using namespace ibburn::counters;

static std::string corpus(const std::string& rel) { return read_file(ibburn::testing::corpus_path(rel)); }

TEST(PerfqueryText, ExtendedSwitchCountersFromARealEdrSwitch) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  auto blocks = parse_perfquery_text(corpus("perfquery/x-l-edr-switch-osc-treydock.txt"), "pq");
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].attribute, "Port extended counters");
  EXPECT_EQ(blocks[0].lid, 1719);
  EXPECT_EQ(blocks[1].port, 2);
  // Every counter-like field name the real tool printed is one we know.
  for (const auto& b : blocks)
    for (const auto& [name, value] : b.fields) {
      bool selector = name == "PortSelect" || name.rfind("CounterSelect", 0) == 0;
      EXPECT_TRUE(selector || counter_from_name(name)) << name;
    }
  CounterValues c = counters_from_perfquery(blocks[0]);
  EXPECT_EQ(c.get(Counter::PortXmitData), 36298026860928ull);
  EXPECT_EQ(c.get(Counter::PortMulticastRcvPkts), 5584846741ull);
  EXPECT_EQ(c.get(Counter::PortXmitWait), 22730501u);
  EXPECT_EQ(c.bits[static_cast<size_t>(Counter::PortXmitData)], 64);
  EXPECT_TRUE(c.has(Counter::QP1Dropped));
  auto octets = c.data_octets();
  ASSERT_TRUE(octets);
  EXPECT_DOUBLE_EQ(*octets, 4.0 * (36298026860928.0 + 12279028775751.0));
}

TEST(PerfqueryText, OtherAttributesParseButCarryNoPortCounters) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  auto blocks = parse_perfquery_text(corpus("perfquery/E-rcverrdetails-osc-treydock.txt"), "pq");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].attribute, "PortRcvErrorDetails counters");
  EXPECT_EQ(blocks[0].line, 1);
  EXPECT_EQ(blocks[0].fields.size(), 8u);
  EXPECT_FALSE(counters_from_perfquery(blocks[0]).has(Counter::SymbolErrorCounter));
}

TEST(PerfqueryText, PlainPortCountersGetTheirPortCountersWidths) {
  auto blocks = parse_perfquery_text(
      "# Port counters: Lid 1 port 3 (CapMask: 0x1300)\nPortSelect:......................3\n"
      "SymbolErrorCounter:..............65535\nLocalLinkIntegrityErrors:........15\n"
      "PortXmitData:....................8928\n",
      "pq");
  CounterValues c = counters_from_perfquery(blocks.at(0));
  EXPECT_TRUE(c.saturated(Counter::SymbolErrorCounter));
  EXPECT_TRUE(c.saturated(Counter::LocalLinkIntegrityErrors));
  EXPECT_EQ(c.bits[static_cast<size_t>(Counter::PortXmitData)], 32);
}

TEST(PerfqueryText, MalformedLinesNameTheLine) {
  try {
    parse_perfquery_text("# Port counters: Lid 1 port 3\nSymbolErrorCounter:....x1\n", "pq.txt");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
  }
  EXPECT_THROW(parse_perfquery_text("PortSelect:....1\n", "pq.txt"), InputError);
}

TEST(IbqueryerrorsCorpus, CounterNamesAreOursAndSaturationShows) {
  IBBURN_SKIP_WITHOUT_CORPUS();
  auto out = counters::testing::parse_ibqueryerrors(corpus("ibqueryerrors/sx6036-fdr-linux-rdma-2021.txt"));
  EXPECT_EQ(out.summary_bad_ports, 14);
  EXPECT_EQ(out.flagged().size(), 14u);
  for (const auto& [port, counters] : out.ports)
    for (const auto& [name, value] : counters) EXPECT_TRUE(counter_from_name(name)) << name;
  // ibqueryerrors' flagged values, judged by our saturation rule with PortCounters widths.
  const auto& p5 = out.ports.at({"MF0;ys23ib4:SX6036/U1", 5});
  CounterValues v;
  v.set(Counter::SymbolErrorCounter, p5.at("SymbolErrorCounter"), 16);
  v.set(Counter::PortXmitWait, p5.at("PortXmitWait"), 32);
  EXPECT_TRUE(v.saturated(Counter::SymbolErrorCounter));
  EXPECT_FALSE(v.saturated(Counter::PortXmitWait));  // 84704351
  const auto& host = out.ports.at({"server mlx4_0", 1});
  v.set(Counter::PortXmitWait, host.at("PortXmitWait"), 32);
  EXPECT_TRUE(v.saturated(Counter::PortXmitWait));  // 4294967295
}
