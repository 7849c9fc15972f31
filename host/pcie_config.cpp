#include "host/pcie_config.h"

namespace ibburn::host {

namespace {
uint16_t le16(std::string_view b, size_t at) {
  return static_cast<uint16_t>(static_cast<uint8_t>(b[at]) | (static_cast<uint8_t>(b[at + 1]) << 8));
}
uint32_t le32(std::string_view b, size_t at) { return le16(b, at) | (static_cast<uint32_t>(le16(b, at + 2)) << 16); }
constexpr size_t kStatus = 0x06, kCapPointer = 0x34, kExtStart = 0x100;
constexpr uint16_t kStatusCapList = 0x10;
constexpr uint8_t kCapPcie = 0x10;
constexpr uint16_t kExtCapAcs = 0x000D;
}  // namespace

bool faces_upstream(PortType t) {
  return t == PortType::Endpoint || t == PortType::LegacyEndpoint || t == PortType::UpstreamPort ||
         t == PortType::PcieToPciBridge;
}

std::optional<PortType> pcie_port_type(std::string_view config) {
  if (config.size() < 0x40 || !(le16(config, kStatus) & kStatusCapList)) return std::nullopt;
  size_t at = static_cast<uint8_t>(config[kCapPointer]) & ~3u;
  // 48 capabilities fit in the 192 bytes after the header: more means a loop.
  for (int guard = 0; at >= 0x40 && guard < 48; ++guard) {
    if (at + 4 > config.size()) return std::nullopt;
    if (static_cast<uint8_t>(config[at]) == kCapPcie) return static_cast<PortType>((le16(config, at + 2) >> 4) & 0xF);
    at = static_cast<uint8_t>(config[at + 1]) & ~3u;
  }
  return std::nullopt;
}

AcsInfo read_acs(std::string_view config) {
  AcsInfo info;
  // Unprivileged reads stop at the 64-byte header; a 256-byte space is conventional PCI,
  // which has no extended capabilities at all.
  if (config.size() <= 0x40) return info;
  if (config.size() <= kExtStart) {
    info.state = AcsInfo::State::Absent;
    return info;
  }
  size_t at = kExtStart;
  // 4 KiB of extended space holds at most 960 dword headers: more means a loop.
  for (int guard = 0; guard < 960; ++guard) {
    if (at + 4 > config.size()) return info;  // Unreadable: the bytes stop before the list does
    uint32_t header = le32(config, at);
    if (header == 0 || header == 0xFFFFFFFFu) break;  // empty list / device gone
    if ((header & 0xFFFF) == kExtCapAcs) {
      if (at + 8 > config.size()) return info;
      info.state = AcsInfo::State::Present;
      info.control = le16(config, at + 6);
      return info;
    }
    size_t next = (header >> 20) & ~3u;
    if (next < kExtStart) break;
    at = next;
  }
  info.state = AcsInfo::State::Absent;
  return info;
}

}  // namespace ibburn::host
