#include <gtest/gtest.h>

#include "burn/tcp_wire.h"

using namespace ibburn::burn::tcp;

TEST(TcpWire, AcceptsTheExpectedHeaderAndNamesEachMismatch) {
  Expectation e{3, 7, 1, 1024, 42};
  Header h;
  h.stage = 3;
  h.flow = 7;
  h.stream = 1;
  h.length = 1024;
  h.seq = 42;
  EXPECT_EQ(check_header(h, e), "");
  auto bad = [&](auto mutate, const std::string& needle) {
    Header x = h;
    mutate(x);
    std::string why = check_header(x, e);
    EXPECT_NE(why.find(needle), std::string::npos) << why;
  };
  bad([](Header& x) { x.magic = 1; }, "bad magic");
  bad([](Header& x) { x.stage = 2; }, "stage 2 during stage 3");
  bad([](Header& x) { x.flow = 8; }, "flow 8");
  bad([](Header& x) { x.stream = 0; }, "stream 0");
  bad([](Header& x) { x.length = 2048; }, "length 2048");
  bad([](Header& x) { x.length = 0; }, "length 0");
  bad([](Header& x) { x.seq = 41; }, "sequence 41 where 42");
}
