#include "tests/burn/host_relays.h"

#include <unistd.h>

#include <string>

namespace ibburn::testing {

using namespace std::chrono_literals;

HostRelays::HostRelays(int per_host, int first_host, int last_host, std::uint16_t port, burn::SteadyTime deadline)
    : per_host_(per_host), first_host_(first_host), port_(port) {
  for (int h = first_host; h < last_host; ++h) {
    relays_.emplace_back();
    if (per_host < 2 || h == 0) continue;
    relays_.back() = std::make_unique<burn::Relay>(burn::relay_path(std::to_string(::getpid()), h * per_host));
    threads_.emplace_back([relay = relays_.back().get(), port, deadline] {
      relay->run(burn::connect_control({"127.0.0.1"}, port, deadline));
    });
  }
}

HostRelays::~HostRelays() {
  for (auto& relay : relays_)
    if (relay) relay->finish(1s);
  for (auto& t : threads_) t.join();
}

burn::Channel HostRelays::connect(int rank, burn::SteadyTime deadline) const {
  const int host = per_host_ < 2 ? 0 : rank / per_host_;
  const burn::Relay* relay = per_host_ < 2 ? nullptr : relays_.at(static_cast<std::size_t>(host - first_host_)).get();
  return burn::Channel(relay ? burn::connect_unix(relay->path(), deadline)
                             : burn::connect_control({"127.0.0.1"}, port_, deadline));
}

}  // namespace ibburn::testing
