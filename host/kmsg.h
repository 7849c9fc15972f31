#pragma once
// Kernel messages about PCIe links that trained below what the device can do. The kernel
// prints them once, at probe time (drivers/pci/pci.c, __pcie_print_link_status):
//   <driver> <bdf>: %u.%03u Gb/s available PCIe bandwidth, limited by %s x%d link at %s
//   (capable of %u.%03u Gb/s with %s x%d link)
// The lines may come from /dev/kmsg ("6,123,456,-;mlx5_core 0000:1a:00.0: ..."), dmesg
// ("[   12.3] mlx5_core 0000:1a:00.0: ...") or journalctl; the parser finds them anywhere.
#include <optional>
#include <string>
#include <vector>

namespace ibburn::host {

struct KmsgLimit {
  std::string bdf;         // the device the message is about
  std::string limited_at;  // the port that limits it ("<unknown>" when the kernel had none)
  double available_gbps = 0, capable_gbps = 0;
  std::optional<double> speed_gts, capable_speed_gts;
  int width = 0, capable_width = 0;
  std::string line;  // the message as found, for evidence
};

// One line; nullopt when it is not such a message.
std::optional<KmsgLimit> parse_kmsg_limit(const std::string& line);
// Every such message in a log text (one message per line; continuation lines are ignored).
std::vector<KmsgLimit> parse_kmsg_limits(const std::string& text);

// Reads what the kernel ring buffer holds now from a /dev/kmsg-like device without blocking
// (one record per read, stops at EAGAIN). Throws EnvironmentError when it cannot open it.
std::string read_kmsg_device(const std::string& path);

}  // namespace ibburn::host
