// The shared transport suite on the TCP transport over loopback: every backend passes the
// same tests (tests/burn/transport_suite.h).
#include "burn/tcp_transport.h"
#include "tests/burn/transport_suite.h"

namespace ibburn::testing {
namespace {

class LoopbackTcpPair : public TransportPair {
 public:
  explicit LoopbackTcpPair(burn::TransportOptions o) {
    o.bind = "127.0.0.1";
    ta_ = burn::make_tcp_transport(o);
    tb_ = burn::make_tcp_transport(o);
  }
  burn::Transport& a() override { return *ta_; }
  burn::Transport& b() override { return *tb_; }

 private:
  std::unique_ptr<burn::Transport> ta_, tb_;
};

INSTANTIATE_TEST_SUITE_P(Tcp, TransportSuite,
                         ::testing::Values(TransportBackend{"tcp_loopback", [](const burn::TransportOptions& o) {
                                                              return std::make_unique<LoopbackTcpPair>(o);
                                                            }}));

}  // namespace
}  // namespace ibburn::testing
