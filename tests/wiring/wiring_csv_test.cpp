#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "common/file_io.h"
#include "tests/support/temp_dir.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {
namespace {

using topo::LinkRate;
using topo::Speed;
using topo::Width;

// Parses `text`, expecting an InputError; returns it (or a blank one after a test failure).
InputError error_of(const std::string& text) {
  try {
    parse_wiring_csv(text, "plan.csv");
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return InputError("", -1, "");
}

const char* const kHeader = "a_node,a_port,b_node,b_port,rate,cable\n";

TEST(WiringCsv, APlaneColumnNamesEachCablesSubnetAndIsWrittenBack) {
  const std::string text = std::string(kHeader).replace(std::string(kHeader).size() - 1, 1, ",plane\n") +
                           "host001 mlx5_0,1,plane1-leaf01,1,4xNDR,,1\n"
                           "host001 mlx5_1,1,plane2-leaf01,1,4xNDR,,2\n";
  Wiring w = parse_wiring_csv(text, "plan.csv");
  ASSERT_EQ(w.cables.size(), 2u);
  EXPECT_EQ(w.cables[0].plane, 1);
  EXPECT_EQ(w.cables[1].plane, 2);
  EXPECT_EQ(w.planes(), 2);
  EXPECT_EQ(to_csv(w), text);
  // Without the column, or with it empty everywhere: one subnet, and no column written.
  Wiring one = parse_wiring_csv("a_node,a_port,b_node,b_port,plane\na,1,b,1,\n", "plan.csv");
  EXPECT_EQ(one.planes(), 0);
  EXPECT_EQ(to_csv(one), "a_node,a_port,b_node,b_port,rate,cable\na,1,b,1,,\n");
}

TEST(WiringCsv, ParsesAllColumns) {
  Wiring w = parse_wiring_csv(std::string("# site plan\n") + kHeader +
                                  "host001 mlx5_0,1,pod1-leaf01,1,4xNDR,C-0001\n"
                                  "pod1-leaf01,33,pod1-spine01,1,,\n",
                              "plan.csv");
  EXPECT_EQ(w.origin, "plan.csv");
  ASSERT_EQ(w.cables.size(), 2u);
  const Cable& c = w.cables[0];
  EXPECT_EQ(c.a, (CableEnd{"host001 mlx5_0", 1}));
  EXPECT_EQ(c.b, (CableEnd{"pod1-leaf01", 1}));
  ASSERT_TRUE(c.rate);
  EXPECT_EQ(*c.rate, (LinkRate{Width::X4, Speed::NDR}));
  EXPECT_EQ(c.label, "C-0001");
  EXPECT_EQ(c.line, 3);
  EXPECT_FALSE(w.cables[1].rate);  // empty = any
  EXPECT_EQ(w.cables[1].label, "");
  EXPECT_EQ(w.cables[1].line, 4);
}

TEST(WiringCsv, OptionalColumnsMayBeOmittedAndOrderIsFree) {
  Wiring w = parse_wiring_csv("b_port,b_node,a_port,a_node\n3,sw2,7,sw1\n", "p");
  ASSERT_EQ(w.cables.size(), 1u);
  EXPECT_EQ(w.cables[0].a, (CableEnd{"sw1", 7}));
  EXPECT_EQ(w.cables[0].b, (CableEnd{"sw2", 3}));
  EXPECT_FALSE(w.cables[0].rate);

  w = parse_wiring_csv("A_Node , a_port,b_node,b_port,rate\nsw1,1,sw2,2,4X HDR\n", "p");
  ASSERT_EQ(w.cables.size(), 1u);
  EXPECT_EQ(*w.cables[0].rate, (LinkRate{Width::X4, Speed::HDR}));
}

TEST(WiringCsv, QuotesCommentsBlanksCrlfAndBom) {
  Wiring w = parse_wiring_csv(std::string("\xEF\xBB\xBF") + "a_node,a_port,b_node,b_port,rate,cable\r\n" +
                                  "\r\n"
                                  "   # indented comment\r\n"
                                  "\"rack 3, host 7 mlx5_0\",1,\"sw \"\"north\"\"\",2,4xNDR,\"tag #1\" # trailing\r\n"
                                  "  host2 mlx5_1 , 1 ,sw,3,,\n"
                                  "host3 mlx5_0,1,sw,4,1xSDR,  # empty label, then a comment\n",
                              "p");
  ASSERT_EQ(w.cables.size(), 3u);
  EXPECT_EQ(w.cables[0].a.node, "rack 3, host 7 mlx5_0");
  EXPECT_EQ(w.cables[0].b.node, "sw \"north\"");
  EXPECT_EQ(w.cables[0].label, "tag #1");
  EXPECT_EQ(w.cables[0].line, 4);
  EXPECT_EQ(w.cables[1].a, (CableEnd{"host2 mlx5_1", 1}));  // unquoted fields are trimmed
  EXPECT_EQ(w.cables[2].label, "");
  EXPECT_EQ(*w.cables[2].rate, (LinkRate{Width::X1, Speed::SDR}));
}

TEST(WiringCsv, SameSwitchLoopbackOnTwoPortsIsACable) {
  // Real fabrics have them (a switch cabled port 25 to 26): only the very same port is wrong.
  Wiring w = parse_wiring_csv("a_node,a_port,b_node,b_port\nsw,25,sw,26\n", "p");
  EXPECT_EQ(w.cables.size(), 1u);
}

TEST(WiringCsv, RoundTripIsExact) {
  Wiring w;
  Cable c;
  c.a = {"host001 mlx5_0", 1};
  c.b = {"pod1-leaf01", 1};
  c.rate = LinkRate{Width::X4, Speed::NDR};
  c.label = "C,1 \"x\" #2";
  w.cables.push_back(c);
  c.a = {" spaced ", 3};
  c.b = {"sw,comma", 4};
  c.rate.reset();
  c.label = "";
  w.cables.push_back(c);
  c.a = {"sw#hash", 5};
  c.b = {"s", 254};
  c.rate = LinkRate{Width::X12, Speed::FDR10};
  w.cables.push_back(c);

  std::string text = to_csv(w);
  EXPECT_EQ(text.substr(0, text.find('\n') + 1), kHeader);
  Wiring back = parse_wiring_csv(text, "again");
  ASSERT_EQ(back.cables.size(), w.cables.size());
  for (size_t i = 0; i < w.cables.size(); ++i) {
    EXPECT_EQ(back.cables[i].a, w.cables[i].a) << i;
    EXPECT_EQ(back.cables[i].b, w.cables[i].b) << i;
    EXPECT_EQ(back.cables[i].rate, w.cables[i].rate) << i;
    EXPECT_EQ(back.cables[i].label, w.cables[i].label) << i;
  }
  EXPECT_EQ(to_csv(back), text);
}

TEST(WiringCsv, LoadNamesTheFile) {
  testing::TempDir dir;
  const std::string path = dir.file("plan.csv");
  write_file_atomic(path, std::string(kHeader) + "a,1,b,1,,\nc,1,d,x,,\n");
  try {
    load_wiring_csv(path);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(std::string(e.what()), path + ":3: bad b_port 'x' (expected a port number 1..254)");
  }
  std::filesystem::remove(path);
  EXPECT_THROW(load_wiring_csv(path), InputError);  // unreadable file
}

struct BadCase {
  const char* name;
  std::string text;
  int line;
  const char* reason;  // exact
};

class WiringCsvErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(WiringCsvErrors, NameFileLineAndReason) {
  const BadCase& c = GetParam();
  InputError e = error_of(c.text);
  EXPECT_EQ(e.file(), "plan.csv");
  EXPECT_EQ(e.line(), c.line);
  EXPECT_EQ(e.reason(), c.reason);
  EXPECT_EQ(e.code(), kExitInput);
}

const std::string kH = kHeader;

INSTANTIATE_TEST_SUITE_P(
    Cases, WiringCsvErrors,
    ::testing::Values(
        BadCase{"empty", "", 0,
                "no header row (empty or only comments): the first row must be "
                "a_node,a_port,b_node,b_port[,rate[,cable[,plane]]]"},
        BadCase{"only_comments", "# x\n\n", 0,
                "no header row (empty or only comments): the first row must be "
                "a_node,a_port,b_node,b_port[,rate[,cable[,plane]]]"},
        BadCase{"missing_header", "# plan\nsw1,1,sw2,2\n", 2,
                "missing header row: the first row must be a_node,a_port,b_node,b_port[,rate[,cable[,plane]]]"},
        BadCase{"unknown_column", "a_node,a_port,b_node,b_port,speed\n", 1,
                "unknown column 'speed' (columns: a_node,a_port,b_node,b_port[,rate[,cable[,plane]]])"},
        BadCase{"duplicate_column", "a_node,a_port,b_node,b_port,a_port\n", 1,
                "column 'a_port' appears twice in the header"},
        BadCase{"header_lacks_column", "a_node,a_port,b_node,rate\n", 1,
                "header lacks column 'b_port' (columns: a_node,a_port,b_node,b_port[,rate[,cable[,plane]]])"},
        BadCase{"too_few_fields", kH + "a,1,b,2,4xNDR\n", 2, "expected 6 fields as in the header, found 5"},
        BadCase{"too_many_fields", kH + "a,1,b,2,4xNDR,l,extra\n", 2, "expected 6 fields as in the header, found 7"},
        BadCase{"hash_cuts_row", kH + "a,1,b#2,2,,\n", 2, "expected 6 fields as in the header, found 3"},
        BadCase{"empty_a_node", kH + "\n,1,b,2,,\n", 3, "empty a_node"},
        BadCase{"empty_b_node", kH + "a,1,\"\",2,,\n", 2, "empty b_node"},
        BadCase{"port_not_number", kH + "a,one,b,2,,\n", 2, "bad a_port 'one' (expected a port number 1..254)"},
        BadCase{"port_zero", kH + "a,1,b,0,,\n", 2, "bad b_port '0' (expected a port number 1..254)"},
        BadCase{"port_too_big", kH + "a,255,b,1,,\n", 2, "bad a_port '255' (expected a port number 1..254)"},
        BadCase{"port_negative", kH + "a,-1,b,1,,\n", 2, "bad a_port '-1' (expected a port number 1..254)"},
        BadCase{"port_trailing", kH + "a,1x,b,1,,\n", 2, "bad a_port '1x' (expected a port number 1..254)"},
        BadCase{"port_empty", kH + "a,,b,1,,\n", 2, "bad a_port '' (expected a port number 1..254)"},
        BadCase{"unknown_rate", kH + "a,1,b,1,400G,\n", 2,
                "unknown rate '400G' (expected width x speed such as 4xNDR or 4xHDR; empty = any)"},
        BadCase{"unknown_speed", kH + "a,1,b,1,4xGDR,\n", 2,
                "unknown rate '4xGDR' (expected width x speed such as 4xNDR or 4xHDR; empty = any)"},
        BadCase{"cable_to_itself", kH + "sw,3,sw,3,,\n", 2, "cable connects sw[3] to itself"},
        BadCase{"port_used_twice", kH + "a,1,sw,3,,\n# c\nb,1,sw,3,,\n", 4,
                "sw[3] is already used by the cable on line 2"},
        BadCase{"same_cable_twice_reversed", kH + "a,1,sw,3,,\nsw,3,a,1,,\n", 3,
                "sw[3] is already used by the cable on line 2"},
        BadCase{"unterminated_quote", kH + "\"a,1,b,1,,\n", 2, "unterminated quoted field"},
        BadCase{"text_after_quote", kH + "\"a\"x,1,b,1,,\n", 2, "unexpected text after a quoted field"},
        BadCase{"stray_quote", kH + "a\"b,1,c,1,,\n", 2, "a quote inside an unquoted field (quote the whole field)"},
        BadCase{"plane_not_number", "a_node,a_port,b_node,b_port,plane\na,1,b,1,x\n", 2,
                "bad plane 'x' (expected 1..64; empty = one subnet)"},
        BadCase{"plane_zero", "a_node,a_port,b_node,b_port,plane\na,1,b,1,0\n", 2,
                "bad plane '0' (expected 1..64; empty = one subnet)"},
        BadCase{"plane_left_empty", "a_node,a_port,b_node,b_port,plane\na,1,b,1,1\nc,1,b,2,\n", 3,
                "no plane for this cable while other cables name theirs (every cable of a design with planes names "
                "one)"},
        BadCase{"node_in_two_planes", "a_node,a_port,b_node,b_port,plane\na,1,leaf,1,1\n# x\nc,1,leaf,2,2\n", 4,
                "leaf is in plane 2 here and in plane 1 on line 2 (a node lies in one plane)"}),
    [](const ::testing::TestParamInfo<BadCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace ibburn::wiring
