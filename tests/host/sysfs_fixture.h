#pragma once
// Builds fake sysfs trees in a temp dir, laid out like the kernel's: devices under
// devices/pci<domain>:<bus>/<bridge>/.../<bdf>, with bus/pci/devices and class/infiniband
// symlinks into them, plus config space files. dgx_h100() describes an 8-GPU / 8-HCA server
// as plain data that tests alter before writing it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ibburn::host::fixture {

struct FunctionSpec {
  std::string bdf;
  std::string parent;  // a BDF given earlier, or a host bridge such as "pci0000:15"
  uint16_t vendor = 0, device = 0;
  uint32_t class_code = 0;
  int numa_node = -1;
  std::string speed = "32.0 GT/s PCIe", max_speed = "32.0 GT/s PCIe";
  int width = 16, max_width = 16;
  std::optional<int> port_type;         // PCIe capability port type; nullopt: no PCIe capability
  std::optional<uint16_t> acs_control;  // nullopt: no ACS capability
  size_t config_size = 4096;            // 64 is what an unprivileged reader gets
};

struct IbPortSpec {
  int number = 1;
  std::string state = "4: ACTIVE", phys_state = "5: LinkUp";
  std::string rate = "400 Gb/sec (4X NDR)", link_layer = "InfiniBand";
};

struct HcaSpec {
  std::string name, bdf;
  std::string fw = "28.39.1002";
  std::vector<IbPortSpec> ports = {IbPortSpec{}};
};

struct ServerSpec {
  std::vector<FunctionSpec> functions;  // parents before children
  std::vector<HcaSpec> hcas;
  std::vector<std::string> peer_memory = {"nvidia_peermem"};  // or "nv_mem", "nv_mem_nc"

  FunctionSpec& function(const std::string& bdf);  // throws when absent
  HcaSpec& hca(const std::string& name);
};

// 2 sockets x 4 host bridges; each root port feeds a PCIe switch with one GPU and one HCA
// (GPUn and mlx5_n, PIX), like a DGX H100. Socket 0 also has an NVSwitch and the BMC's VGA.
// Bus numbers: switch n uses base = kBases[n]: root port base:01.0, switch upstream port
// (base+1):00.0, downstream ports (base+2):00.0 -> HCA (base+3):00.0 and
// (base+2):01.0 -> GPU (base+4):00.0.
ServerSpec dgx_h100();
std::string gpu_bdf(int n);
std::string hca_bdf(int n);
std::string gpu_port_bdf(int n);  // the switch downstream port above GPU n
std::string hca_port_bdf(int n);

// Writes the server under root (which must exist); returns root.
std::string write_sysfs(const ServerSpec& s, const std::string& root);

// The config space bytes the fixture writes (exposed for the decoder's tests).
std::string config_space(const FunctionSpec& f);

}  // namespace ibburn::host::fixture
