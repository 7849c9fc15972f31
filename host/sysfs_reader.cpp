#include "host/sysfs_reader.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "common/error.h"
#include "host/pcie_link.h"
#include "rdma/gpudirect.h"

namespace fs = std::filesystem;

namespace ibburn::host {

std::optional<std::string> read_sysfs_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string s = ss.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::optional<uint64_t> read_sysfs_number(const std::string& path) {
  const auto text = read_sysfs_text(path);
  if (!text || text->empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text->c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || (*text)[0] == '-') return std::nullopt;
  return v;
}

namespace {
constexpr uint16_t kNvidia = 0x10de;

// Sysfs read errors (EIO on a vanished device) end the stream early: what was read counts.
std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return "";
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

unsigned long read_hex(const fs::path& p) {
  auto s = read_sysfs_text(p);
  return s ? std::strtoul(s->c_str(), nullptr, 16) : 0;
}

bool is_bdf(const std::string& s) {
  static const std::regex re(R"([0-9a-fA-F]{4,}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7])");
  return std::regex_match(s, re);
}

// "mlx5_2" before "mlx5_10".
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2]))) ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2]))) ++j2;
      unsigned long x = std::stoul(a.substr(i, i2 - i)), y = std::stoul(b.substr(j, j2 - j));
      if (x != y) return x < y;
      i = i2, j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

struct Reader {
  explicit Reader(const std::string& sysfs_root) : root(sysfs_root) {
    std::error_code ec;
    devices = fs::canonical(root / "devices", ec);
  }

  // Adds the function and every bridge above it; returns false when its path is unknown.
  bool add_with_path(HostInventory& inv, const std::string& bdf) {
    std::error_code ec;
    fs::path real = fs::canonical(root / "bus/pci/devices" / bdf, ec);
    if (ec || devices.empty()) return false;
    fs::path rel = real.lexically_relative(devices);
    std::string host_bridge;
    std::vector<std::string> chain;  // bridges, then the device itself
    for (const auto& part : rel) {
      std::string s = part.string();
      if (host_bridge.empty()) {
        if (s.rfind("pci", 0) != 0) return false;  // not under a PCI host bridge
        host_bridge = s;
      } else if (is_bdf(s)) {
        chain.push_back(s);
      }
    }
    if (chain.empty() || chain.back() != bdf) return false;
    for (size_t i = 0; i < chain.size(); ++i) {
      if (inv.pci.count(chain[i])) continue;
      PciFunction f = read_function(real, chain.size() - 1 - i);
      f.bdf = chain[i];
      f.host_bridge = host_bridge;
      f.bridges.assign(chain.begin(), chain.begin() + static_cast<long>(i));
      inv.pci.emplace(f.bdf, std::move(f));
    }
    return true;
  }

  fs::path root;
  fs::path devices;

  // levels_up: 0 for the device at `dir`, 1 for its parent bridge, ...
  static PciFunction read_function(fs::path dir, size_t levels_up) {
    for (size_t i = 0; i < levels_up; ++i) dir = dir.parent_path();
    PciFunction f;
    f.vendor = static_cast<uint16_t>(read_hex(dir / "vendor"));
    f.device = static_cast<uint16_t>(read_hex(dir / "device"));
    f.class_code = static_cast<uint32_t>(read_hex(dir / "class"));
    if (auto s = read_sysfs_text(dir / "numa_node")) f.numa_node = std::atoi(s->c_str());
    if (auto s = read_sysfs_text(dir / "current_link_speed")) f.speed_gts = parse_pcie_speed(*s);
    if (auto s = read_sysfs_text(dir / "max_link_speed")) f.max_speed_gts = parse_pcie_speed(*s);
    if (auto s = read_sysfs_text(dir / "current_link_width")) f.width = parse_pcie_width(*s);
    if (auto s = read_sysfs_text(dir / "max_link_width")) f.max_width = parse_pcie_width(*s);
    std::string config = read_bytes(dir / "config");
    f.config_bytes = config.size();
    f.port_type = pcie_port_type(config);
    f.acs = read_acs(config);
    return f;
  }
};

std::vector<HcaPort> read_ports(const fs::path& dev) {
  std::vector<HcaPort> ports;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dev / "ports", ec)) {
    HcaPort p;
    p.number = std::atoi(e.path().filename().c_str());
    p.state = read_sysfs_text(e.path() / "state").value_or("");
    p.phys_state = read_sysfs_text(e.path() / "phys_state").value_or("");
    p.rate = read_sysfs_text(e.path() / "rate").value_or("");
    p.link_layer = read_sysfs_text(e.path() / "link_layer").value_or("");
    ports.push_back(p);
  }
  std::sort(ports.begin(), ports.end(), [](const HcaPort& a, const HcaPort& b) { return a.number < b.number; });
  return ports;
}
}  // namespace

HostInventory read_inventory(const std::string& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw InputError(root, 0, "no such sysfs directory");
  HostInventory inv;
  inv.sysfs_root = root;
  Reader reader(root);

  std::vector<std::string> gpu_bdfs;
  for (const auto& e : fs::directory_iterator(reader.root / "bus/pci/devices", ec)) {
    std::string bdf = e.path().filename().string();
    if (read_hex(e.path() / "vendor") == kNvidia && (read_hex(e.path() / "class") >> 16) == 0x03)
      gpu_bdfs.push_back(bdf);
  }
  std::sort(gpu_bdfs.begin(), gpu_bdfs.end());
  for (const auto& bdf : gpu_bdfs)
    if (reader.add_with_path(inv, bdf)) inv.gpus.push_back({"GPU" + std::to_string(inv.gpus.size()), bdf});

  for (const auto& e : fs::directory_iterator(reader.root / "class/infiniband", ec)) {
    std::error_code ec2;
    fs::path pci = fs::canonical(e.path() / "device", ec2);
    std::string bdf = pci.filename().string();
    Hca h;
    h.name = e.path().filename().string();
    h.fw_ver = read_sysfs_text(e.path() / "fw_ver").value_or("");
    h.node_guid = read_sysfs_text(e.path() / "node_guid").value_or("");
    h.ports = read_ports(e.path());
    // Software RDMA devices (rxe, siw) have no PCI function, only the netdev they run on.
    if (ec2 || !is_bdf(bdf)) {
      h.parent = read_sysfs_text(e.path() / "parent").value_or("");
      if (!h.parent.empty()) inv.soft_hcas.push_back(std::move(h));
      continue;
    }
    if (!reader.add_with_path(inv, bdf)) continue;
    h.bdf = bdf;
    inv.hcas.push_back(std::move(h));
  }
  std::sort(inv.hcas.begin(), inv.hcas.end(), [](const Hca& a, const Hca& b) { return natural_less(a.name, b.name); });

  for (const auto& m : rdma::peer_memory_modules(reader.root.string())) inv.peer_memory[m.name] = m.version;
  return inv;
}

}  // namespace ibburn::host
