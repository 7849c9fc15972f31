#pragma once
// Decoding of a PCI function's config space (the sysfs `config` file): the PCIe port type
// and the ACS control register. Pure, no I/O. Unprivileged readers see only the first
// 64 bytes, so every answer says whether the bytes were there to decide.
#include <cstdint>
#include <optional>
#include <string_view>

namespace ibburn::host {

// PCIe capability "device/port type" (PCIe base spec 7.5.3.2).
enum class PortType : uint8_t {
  Endpoint = 0,
  LegacyEndpoint = 1,
  RootPort = 4,
  UpstreamPort = 5,
  DownstreamPort = 6,
  PcieToPciBridge = 7,
  PciToPcieBridge = 8,
  RcIntegratedEndpoint = 9,
  RcEventCollector = 10,
};
// True for ports whose link goes up towards the root (endpoints, switch upstream ports):
// the link they report in sysfs is the one to their parent bridge.
bool faces_upstream(PortType t);

// nullopt when the bytes do not reach the PCIe capability or there is none.
std::optional<PortType> pcie_port_type(std::string_view config);

// ACS bits (PCIe base spec 7.7.8); P2P redirection is what breaks GPUDirect.
constexpr uint16_t kAcsSourceValidation = 0x01, kAcsTranslationBlocking = 0x02, kAcsRequestRedirect = 0x04,
                   kAcsCompletionRedirect = 0x08, kAcsUpstreamForwarding = 0x10, kAcsEgressControl = 0x20,
                   kAcsDirectTranslated = 0x40;
constexpr uint16_t kAcsP2pRedirect = kAcsRequestRedirect | kAcsCompletionRedirect | kAcsEgressControl;

struct AcsInfo {
  enum class State { Unreadable, Absent, Present };
  State state = State::Unreadable;  // Unreadable: extended config space not in the bytes
  uint16_t control = 0;             // valid when Present
};
// Walks the extended capability list from 0x100 looking for ACS (0x000D).
AcsInfo read_acs(std::string_view config);

}  // namespace ibburn::host
