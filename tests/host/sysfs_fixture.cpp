#include "tests/host/sysfs_fixture.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace fs = std::filesystem;

namespace ibburn::host::fixture {

namespace {
const int kBases[8] = {0x15, 0x3f, 0x4f, 0x5d, 0x9a, 0xc0, 0xce, 0xdc};

std::string bdf(int bus, int dev, int fn = 0) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0000:%02x:%02x.%d", bus, dev, fn);
  return buf;
}
std::string host_bridge(int bus) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "pci0000:%02x", bus);
  return buf;
}
std::string hex(unsigned v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*x", digits, v);
  return buf;
}

void put(const fs::path& p, const std::string& content) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << content;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

void put16(std::string& b, size_t at, uint16_t v) {
  b[at] = static_cast<char>(v & 0xff);
  b[at + 1] = static_cast<char>(v >> 8);
}
void put32(std::string& b, size_t at, uint32_t v) {
  put16(b, at, static_cast<uint16_t>(v));
  put16(b, at + 2, static_cast<uint16_t>(v >> 16));
}

FunctionSpec fn(std::string b, std::string parent, uint16_t vendor, uint16_t device, uint32_t cls, int numa,
                std::optional<int> port_type, std::optional<uint16_t> acs) {
  FunctionSpec f;
  f.bdf = std::move(b);
  f.parent = std::move(parent);
  f.vendor = vendor;
  f.device = device;
  f.class_code = cls;
  f.numa_node = numa;
  f.port_type = port_type;
  f.acs_control = acs;
  return f;
}
}  // namespace

std::string gpu_bdf(int n) { return bdf(kBases[n] + 4, 0); }
std::string hca_bdf(int n) { return bdf(kBases[n] + 3, 0); }
std::string gpu_port_bdf(int n) { return bdf(kBases[n] + 2, 1); }
std::string hca_port_bdf(int n) { return bdf(kBases[n] + 2, 0); }

FunctionSpec& ServerSpec::function(const std::string& b) {
  for (auto& f : functions)
    if (f.bdf == b) return f;
  throw std::out_of_range("fixture has no PCI function " + b);
}

HcaSpec& ServerSpec::hca(const std::string& name) {
  for (auto& h : hcas)
    if (h.name == name) return h;
  throw std::out_of_range("fixture has no HCA " + name);
}

ServerSpec dgx_h100() {
  ServerSpec s;
  constexpr uint32_t kBridge = 0x060400;
  // Socket 0 extras that must not count: the BMC's VGA and an NVSwitch.
  s.functions.push_back(fn(bdf(0x00, 0x1c), host_bridge(0x00), 0x8086, 0x7ab8, kBridge, 0, 4, 0x001d));
  auto vga = fn(bdf(0x02, 0x00), bdf(0x00, 0x1c), 0x1a03, 0x2000, 0x030000, 0, 0, std::nullopt);
  vga.speed = vga.max_speed = "5.0 GT/s PCIe";
  vga.width = vga.max_width = 1;
  s.functions.push_back(vga);
  s.functions.push_back(fn(bdf(0x00, 0x1d), host_bridge(0x00), 0x8086, 0x7ab9, kBridge, 0, 4, 0x001d));
  s.functions.push_back(fn(bdf(0x03, 0x00), bdf(0x00, 0x1d), 0x10de, 0x22a3, 0x068000, 0, 0, std::nullopt));
  for (int n = 0; n < 8; ++n) {
    int base = kBases[n], numa = n < 4 ? 0 : 1;
    std::string root_port = bdf(base, 1), usp = bdf(base + 1, 0);
    // Linux enables ACS on root ports; GPUDirect only needs it off inside the switches.
    s.functions.push_back(fn(root_port, host_bridge(base), 0x8086, 0x352a, kBridge, numa, 4, 0x001d));
    s.functions.push_back(fn(usp, root_port, 0x1000, 0xc030, kBridge, numa, 5, std::nullopt));
    s.functions.push_back(fn(hca_port_bdf(n), usp, 0x1000, 0xc030, kBridge, numa, 6, 0x0000));
    s.functions.push_back(fn(gpu_port_bdf(n), usp, 0x1000, 0xc030, kBridge, numa, 6, 0x0000));
    s.functions.push_back(fn(hca_bdf(n), hca_port_bdf(n), 0x15b3, 0x1021, 0x020700, numa, 0, std::nullopt));
    s.functions.push_back(fn(gpu_bdf(n), gpu_port_bdf(n), 0x10de, 0x2330, 0x030200, numa, 0, std::nullopt));
    HcaSpec h;
    h.name = "mlx5_" + std::to_string(n);
    h.bdf = hca_bdf(n);
    s.hcas.push_back(h);
  }
  return s;
}

std::string config_space(const FunctionSpec& f) {
  std::string b(4096, '\0');
  put16(b, 0x00, f.vendor);
  put16(b, 0x02, f.device);
  b[0x09] = static_cast<char>(f.class_code & 0xff);
  b[0x0a] = static_cast<char>((f.class_code >> 8) & 0xff);
  b[0x0b] = static_cast<char>(f.class_code >> 16);
  b[0x0e] = static_cast<char>((f.class_code >> 8) == 0x0604 ? 1 : 0);
  if (f.port_type) {
    put16(b, 0x06, 0x0010);  // status: capability list
    b[0x34] = 0x40;
    b[0x40] = 0x10;  // PCI Express capability, last in the list
    put16(b, 0x42, static_cast<uint16_t>(0x0002 | (*f.port_type << 4)));
    // AER at 0x100, then ACS at 0x148 when the function has one.
    put32(b, 0x100, 0x0001u | (1u << 16) | ((f.acs_control ? 0x148u : 0u) << 20));
    if (f.acs_control) {
      put32(b, 0x148, 0x000Du | (1u << 16));
      put16(b, 0x14c, 0x005f);
      put16(b, 0x14e, *f.acs_control);
    }
  }
  b.resize(f.config_size);
  return b;
}

std::string write_sysfs(const ServerSpec& s, const std::string& root_str) {
  fs::path root(root_str);
  fs::path bus = root / "bus/pci/devices";
  fs::path ib_class = root / "class/infiniband";
  fs::create_directories(bus);
  fs::create_directories(ib_class);
  fs::create_directories(root / "kernel/mm");
  fs::create_directories(root / "module");
  std::map<std::string, fs::path> dirs;
  for (const auto& f : s.functions) {
    fs::path parent = dirs.count(f.parent) ? dirs[f.parent] : root / "devices" / f.parent;
    fs::path dir = parent / f.bdf;
    dirs[f.bdf] = dir;
    put(dir / "vendor", hex(f.vendor, 4) + "\n");
    put(dir / "device", hex(f.device, 4) + "\n");
    put(dir / "class", hex(f.class_code, 6) + "\n");
    put(dir / "numa_node", std::to_string(f.numa_node) + "\n");
    put(dir / "current_link_speed", f.speed + "\n");
    put(dir / "max_link_speed", f.max_speed + "\n");
    put(dir / "current_link_width", std::to_string(f.width) + "\n");
    put(dir / "max_link_width", std::to_string(f.max_width) + "\n");
    put(dir / "config", config_space(f));
    fs::create_directory_symlink(dir.lexically_relative(bus), bus / f.bdf);
  }
  for (const auto& h : s.hcas) {
    fs::path dir = dirs.at(h.bdf) / "infiniband" / h.name;
    put(dir / "fw_ver", h.fw + "\n");
    put(dir / "node_guid", "b83f:d203:00a1:0000\n");
    for (const auto& p : h.ports) {
      fs::path pd = dir / "ports" / std::to_string(p.number);
      put(pd / "state", p.state + "\n");
      put(pd / "phys_state", p.phys_state + "\n");
      put(pd / "rate", p.rate + "\n");
      put(pd / "link_layer", p.link_layer + "\n");
    }
    fs::create_directory_symlink("../../../" + h.bdf, dir / "device");
    fs::create_directory_symlink(dir.lexically_relative(ib_class), ib_class / h.name);
  }
  for (const auto& m : s.peer_memory) {
    if (m == "nvidia_peermem")
      put(root / "module/nvidia_peermem/version", "535.104.05\n");
    else
      put(root / "kernel/mm/memory_peers" / m / "version", "1.3-0\n");
  }
  return root_str;
}

}  // namespace ibburn::host::fixture
