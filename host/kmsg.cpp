#include "host/kmsg.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>

#include "common/error.h"
#include "host/pcie_link.h"

namespace ibburn::host {

namespace {
// The kernel's format with its %s/%d/%u parts as groups. pci_speed_string() yields
// "32.0 GT/s PCIe" or "Unknown"; pci_name() yields a BDF or the literal "<unknown>".
const std::regex& limit_regex() {
  static const std::regex re(R"(([0-9a-fA-F]{4,}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]): )"
                             R"(([0-9]+\.[0-9]{3}) Gb/s available PCIe bandwidth, limited by (.+?) x([0-9]+) link at )"
                             R"((\S+) \(capable of ([0-9]+\.[0-9]{3}) Gb/s with (.+?) x([0-9]+) link\))");
  return re;
}
}  // namespace

std::optional<KmsgLimit> parse_kmsg_limit(const std::string& line) {
  if (line.find("Gb/s available PCIe bandwidth, limited by") == std::string::npos) return std::nullopt;
  std::smatch m;
  if (!std::regex_search(line, m, limit_regex())) return std::nullopt;
  KmsgLimit k;
  k.bdf = m[1];
  k.available_gbps = std::strtod(m[2].str().c_str(), nullptr);
  k.speed_gts = parse_pcie_speed(m[3]);
  k.width = std::atoi(m[4].str().c_str());
  k.limited_at = m[5];
  k.capable_gbps = std::strtod(m[6].str().c_str(), nullptr);
  k.capable_speed_gts = parse_pcie_speed(m[7]);
  k.capable_width = std::atoi(m[8].str().c_str());
  k.line = line.substr(static_cast<size_t>(m.position(0)));
  return k;
}

std::vector<KmsgLimit> parse_kmsg_limits(const std::string& text) {
  std::vector<KmsgLimit> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (auto k = parse_kmsg_limit(line)) out.push_back(std::move(*k));
  return out;
}

std::string read_kmsg_device(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw EnvironmentError(path + ": cannot read the kernel log: " + std::strerror(errno));
  std::string text;
  // A record never exceeds the kernel's 8 KiB limit; a smaller buffer makes read() fail EINVAL.
  char buf[8192];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      text.append(buf, static_cast<size_t>(n));
      if (buf[n - 1] != '\n') text.push_back('\n');
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) continue;  // records overwritten while reading: skip ahead
    if (n < 0 && errno != EAGAIN) {
      int err = errno;
      ::close(fd);
      throw EnvironmentError(path + ": reading the kernel log failed: " + std::strerror(err));
    }
    break;  // EAGAIN or EOF (a plain file): everything there is has been read
  }
  ::close(fd);
  return text;
}

}  // namespace ibburn::host
