#include "host/expectations.h"

#include <gtest/gtest.h>

#include "common/error.h"

using namespace ibburn::host;

TEST(Expectations, ParsesKeysCommentsAndBlankLines) {
  auto e = parse_expectations(
      "# DGX H100 compute rail\n"
      "gpus=8\n"
      "hcas = 8\n"
      "\n"
      "rate=400 Gb/sec (4X NDR)   # as sysfs prints it\n"
      "fw=28.39.1002\n"
      "link_layer=InfiniBand\n"
      "max_distance=PIX\n",
      "dgx.expect");
  EXPECT_EQ(e.gpus, 8);
  EXPECT_EQ(e.hcas, 8);
  EXPECT_EQ(e.rate_gbps, 400.0);
  EXPECT_EQ(e.fw, "28.39.1002");
  EXPECT_EQ(e.link_layer, "InfiniBand");
  EXPECT_EQ(e.max_distance, Distance::PIX);
  EXPECT_EQ(parse_expectations("", "empty").max_distance, Distance::PXB);
}

TEST(Expectations, ErrorsNameFileAndLine) {
  auto message = [](const std::string& text) {
    try {
      parse_expectations(text, "site.expect");
    } catch (const ibburn::InputError& e) {
      EXPECT_EQ(e.code(), ibburn::kExitInput);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("gpus=8\n\ngpu=8\n").rfind("site.expect:3: unknown key 'gpu'", 0), 0u)
      << message("gpus=8\n\ngpu=8\n");
  EXPECT_NE(message("gpus=eight\n").find("site.expect:1: gpus must be a count"), std::string::npos);
  EXPECT_NE(message("rate=fast\n").find("site.expect:1: rate"), std::string::npos);
  EXPECT_NE(message("link_layer=IB\n").find("InfiniBand or Ethernet"), std::string::npos);
  EXPECT_NE(message("max_distance=NV4\n").find("PIX, PXB"), std::string::npos);
  EXPECT_NE(message("fw\n").find("site.expect:1: expected key=value"), std::string::npos);
  EXPECT_NE(message("fw=\n").find("fw has no value"), std::string::npos);
}
