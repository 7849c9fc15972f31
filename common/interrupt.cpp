#include "common/interrupt.h"

#include <csignal>

namespace ibburn {
namespace {
std::atomic<int> g_signal{0};
extern "C" void on_signal(int sig) { g_signal.store(sig); }
}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: blocking calls return EINTR so loops notice quickly
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}
bool interrupted() { return g_signal.load() != 0; }
void request_interrupt(int sig) { g_signal.store(sig); }
}  // namespace ibburn
