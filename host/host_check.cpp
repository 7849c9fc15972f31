#include "host/host_check.h"

#include <filesystem>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_io.h"
#include "host/checks.h"
#include "host/process_limits.h"
#include "host/sysfs_reader.h"

namespace ibburn::host {

std::vector<Finding> check_all(const HostInventory& inv, const std::vector<Pair>& pairs, const Expectations& e) {
  std::vector<Finding> out;
  auto add = [&](std::vector<Finding> v) { out.insert(out.end(), v.begin(), v.end()); };
  for (const Hca& h : inv.soft_hcas) {
    std::string ports;
    for (const HcaPort& p : h.ports)
      ports += fmt::format("{}port {} {}, {}", ports.empty() ? "" : "; ", p.number, p.state, p.link_layer);
    out.push_back(Finding{FindingKind::NothingToCheck,
                          Severity::Info,
                          fmt::format("{}: a software RDMA device on {} ({}): no PCIe link, firmware or GPU "
                                      "affinity to check",
                                      h.name, h.parent, ports.empty() ? "no ports" : ports),
                          {},
                          {}});
  }
  if (inv.gpus.empty() && inv.hcas.empty() && inv.soft_hcas.empty())
    out.push_back(Finding{FindingKind::NothingToCheck,
                          Severity::Info,
                          "no GPUs (PCI vendor 0x10de, class 0x03) and no HCAs (class/infiniband) under " +
                              inv.sysfs_root + ": nothing to check",
                          {},
                          {}});
  add(check_counts(inv, e));
  add(check_pcie_links(inv));
  add(check_kmsg(inv));
  add(check_acs(inv, pairs));
  add(check_peer_memory(inv));
  add(check_pairing(inv, pairs, e));
  add(check_hcas(inv, e));
  add(check_memlock(inv, e));
  sort_worst_first(out);
  return out;
}

HostReport evaluate(HostInventory inv, const Expectations& e) {
  HostReport r;
  r.pairing = pair_gpus_with_hcas(inv);
  r.findings = check_all(inv, r.pairing, e);
  r.inventory = std::move(inv);
  return r;
}

HostReport check_host(const CheckOptions& o) {
  Expectations e;
  if (o.expect_file) e = parse_expectations(read_file(*o.expect_file), *o.expect_file);
  e.pinned_bytes = o.pinned_bytes;
  HostInventory inv = read_inventory(o.sysfs_root);
  std::error_code ec;
  bool live = std::filesystem::equivalent(o.sysfs_root, "/sys", ec);
  // The limit is this process's: it describes the host only when /sys is the live one.
  if (live) inv.memlock = read_memlock_limit();

  std::optional<Finding> kmsg_unreadable;
  if (o.kmsg_file) {
    inv.kmsg = parse_kmsg_limits(read_file(*o.kmsg_file));
    inv.kmsg_note = "read " + *o.kmsg_file;
  } else if (live) {
    try {
      inv.kmsg = parse_kmsg_limits(read_kmsg_device(o.kmsg_device));
      inv.kmsg_note = "read " + o.kmsg_device;
    } catch (const EnvironmentError& err) {
      inv.kmsg_note = err.what();
      kmsg_unreadable = Finding{FindingKind::KmsgUnreadable,
                                Severity::Info,
                                std::string(err.what()) + ": boot-time PCIe messages not checked (sysfs still is)",
                                {},
                                {}};
    }
  } else {
    inv.kmsg_note = "not read: " + o.sysfs_root + " is not the live /sys (pass --kmsg FILE)";
  }

  DmaBufResult dmabuf{DmaBuf::Unknown, "not probed: " + o.sysfs_root + " is not the live /sys"};
  if (o.dmabuf_probe)
    dmabuf = o.dmabuf_probe(inv);
  else if (live)
    dmabuf = probe_dmabuf_verbs(inv);
  inv.dmabuf = dmabuf.state;
  inv.dmabuf_note = dmabuf.note;

  HostReport r = evaluate(std::move(inv), e);
  if (kmsg_unreadable) r.findings.push_back(*kmsg_unreadable);
  sort_worst_first(r.findings);
  return r;
}

namespace {
nlohmann::json link_json(const PciFunction& f) {
  nlohmann::json j = nlohmann::json::object();
  if (f.speed_gts) j["speed_gts"] = *f.speed_gts;
  if (f.width) j["width"] = *f.width;
  if (f.max_speed_gts) j["max_speed_gts"] = *f.max_speed_gts;
  if (f.max_width) j["max_width"] = *f.max_width;
  return j;
}

nlohmann::json device_json(const HostInventory& inv, const std::string& name, const std::string& bdf) {
  nlohmann::json j = {{"name", name}, {"bdf", bdf}};
  if (const PciFunction* f = inv.find(bdf)) {
    j["numa_node"] = f->numa_node;
    j["host_bridge"] = f->host_bridge;
    j["path"] = f->bridges;
    j["link"] = link_json(*f);
  }
  return j;
}
}  // namespace

nlohmann::json to_json(const HostReport& r) {
  const HostInventory& inv = r.inventory;
  nlohmann::json j = findings_to_json(r.findings);
  j["sysfs_root"] = inv.sysfs_root;
  j["gpus"] = nlohmann::json::array();
  for (const auto& g : inv.gpus) j["gpus"].push_back(device_json(inv, g.name, g.bdf));
  j["hcas"] = nlohmann::json::array();
  for (const auto& h : inv.hcas) {
    nlohmann::json hj = device_json(inv, h.name, h.bdf);
    hj["fw_ver"] = h.fw_ver;
    hj["node_guid"] = h.node_guid;
    hj["ports"] = nlohmann::json::array();
    for (const auto& p : h.ports)
      hj["ports"].push_back({{"port", p.number},
                             {"state", p.state},
                             {"phys_state", p.phys_state},
                             {"rate", p.rate},
                             {"link_layer", p.link_layer}});
    j["hcas"].push_back(hj);
  }
  j["pairing"] = nlohmann::json::array();
  for (const auto& p : r.pairing)
    j["pairing"].push_back({{"gpu", p.gpu},
                            {"gpu_bdf", p.gpu_bdf},
                            {"hca", p.hca},
                            {"hca_bdf", p.hca_bdf},
                            {"distance", to_string(p.distance)}});
  j["peer_memory"] = {
      {"modules", inv.peer_memory}, {"dmabuf", to_string(inv.dmabuf)}, {"dmabuf_note", inv.dmabuf_note}};
  j["kmsg"] = inv.kmsg_note;
  return j;
}

void print_report(std::ostream& os, const HostReport& r) {
  const HostInventory& inv = r.inventory;
  os << fmt::format("host {}: {} GPU{}, {} HCA{}", inv.sysfs_root, inv.gpus.size(), inv.gpus.size() == 1 ? "" : "s",
                    inv.hcas.size(), inv.hcas.size() == 1 ? "" : "s");
  if (!r.pairing.empty()) {
    std::map<std::string, int> by_distance;
    for (const auto& p : r.pairing) ++by_distance[to_string(p.distance)];
    os << ", " << r.pairing.size() << " GPU-HCA pairs (";
    bool first = true;
    for (const auto& [d, n] : by_distance) os << (first ? "" : ", ") << n << " " << d, first = false;
    os << ")";
  }
  os << "\n";
  if (!inv.gpus.empty() && !inv.hcas.empty()) {
    std::string peers;
    for (const auto& [name, version] : inv.peer_memory) peers += (peers.empty() ? "" : ", ") + name + " " + version;
    os << "peer memory: " << (peers.empty() ? "none" : peers) << "; dma-buf " << to_string(inv.dmabuf);
    if (!inv.dmabuf_note.empty()) os << " (" << inv.dmabuf_note << ")";
    os << "\n";
  }
  for (const auto& p : r.pairing)
    os << fmt::format("  {} {} <-> {} {}  {}\n", p.gpu, p.gpu_bdf, p.hca, p.hca_bdf, to_string(p.distance));
  os << "kernel log: " << inv.kmsg_note << "\n";
  print_summary(os, "host check", r.findings);
}

}  // namespace ibburn::host
