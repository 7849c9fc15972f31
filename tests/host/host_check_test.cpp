// host check on fixture sysfs trees of an 8-GPU / 8-HCA H100 server (sysfs_fixture.h).
#include "host/host_check.h"
#include "host/sysfs_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.h"
#include "tests/host/sysfs_fixture.h"
#include "tests/support/temp_dir.h"

using namespace ibburn;
using namespace ibburn::host;
using fixture::dgx_h100;
using fixture::gpu_bdf;
using fixture::gpu_port_bdf;
using fixture::hca_bdf;
using fixture::hca_port_bdf;
using fixture::ServerSpec;

namespace {

class HostCheck : public ::testing::Test {
 protected:
  // Writes the server and checks it with a faked dma-buf probe.
  HostReport check(const ServerSpec& s, DmaBuf dmabuf = DmaBuf::Unsupported,
                   std::optional<std::string> kmsg = std::nullopt, std::optional<std::string> expect = std::nullopt) {
    std::string root = dir_.path() + "/sys" + std::to_string(runs_++);
    std::filesystem::create_directories(root);
    fixture::write_sysfs(s, root);
    CheckOptions o;
    o.sysfs_root = root;
    o.kmsg_file = kmsg;
    o.expect_file = expect;
    o.dmabuf_probe = [dmabuf](const HostInventory&) { return DmaBufResult{dmabuf, "faked"}; };
    return check_host(o);
  }

  std::string write(const std::string& name, const std::string& content) {
    std::string path = dir_.path() + "/" + name;
    std::ofstream(path) << content;
    return path;
  }

  // The findings that make the host not ready (warning or worse), as "kind@node" strings.
  static std::vector<std::string> problems(const HostReport& r) {
    std::vector<std::string> out;
    for (const auto& f : r.findings)
      if (f.severity >= Severity::Warning)
        out.push_back(to_string(f.kind) + std::string("@") + (f.ports.empty() ? std::string() : f.ports.front().node));
    return out;
  }

  static const Finding& only(const HostReport& r, const std::string& kind) {
    const Finding* found = nullptr;
    for (const auto& f : r.findings)
      if (to_string(f.kind) == kind) {
        EXPECT_EQ(found, nullptr) << "more than one " << kind;
        found = &f;
      }
    if (!found) throw std::runtime_error("no finding of kind " + kind);
    return *found;
  }

  ibburn::testing::TempDir dir_;
  int runs_ = 0;
};

TEST_F(HostCheck, HealthyServerIsReady) {
  HostReport r = check(dgx_h100());
  EXPECT_TRUE(r.findings.empty()) << to_json(r).dump(2);
  EXPECT_EQ(exit_code_for(r.findings), kExitOk);
  // The BMC's VGA (not NVIDIA) and the NVSwitch (class 0x0680) are no GPUs.
  ASSERT_EQ(r.inventory.gpus.size(), 8u);
  ASSERT_EQ(r.inventory.hcas.size(), 8u);
  ASSERT_EQ(r.pairing.size(), 8u);
  for (int n = 0; n < 8; ++n) {
    EXPECT_EQ(r.inventory.gpus[n].name, "GPU" + std::to_string(n));
    EXPECT_EQ(r.inventory.gpus[n].bdf, gpu_bdf(n));
    EXPECT_EQ(r.pairing[n].gpu_bdf, gpu_bdf(n));
    EXPECT_EQ(r.pairing[n].hca, "mlx5_" + std::to_string(n));
    EXPECT_EQ(r.pairing[n].distance, Distance::PIX);
  }
  // The path of GPU0: root port, switch upstream port, downstream port.
  const PciFunction* gpu0 = r.inventory.find(gpu_bdf(0));
  ASSERT_NE(gpu0, nullptr);
  EXPECT_EQ(gpu0->host_bridge, "pci0000:15");
  EXPECT_EQ(gpu0->bridges, (std::vector<std::string>{"0000:15:01.0", "0000:16:00.0", gpu_port_bdf(0)}));
  EXPECT_EQ(gpu0->port_type, PortType::Endpoint);
  EXPECT_EQ(r.inventory.peer_memory.at("nvidia_peermem"), "535.104.05");
  EXPECT_EQ(r.inventory.hcas[0].ports.at(0).rate, "400 Gb/sec (4X NDR)");

  std::ostringstream os;
  print_report(os, r);
  EXPECT_NE(os.str().find("8 GPUs, 8 HCAs, 8 GPU-HCA pairs (8 PIX)"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("host check: OK, no findings"), std::string::npos) << os.str();
}

TEST_F(HostCheck, HcaTrainedAtX8IsNamed) {
  ServerSpec s = dgx_h100();
  s.function(hca_bdf(3)).width = 8;
  s.function(hca_port_bdf(3)).width = 8;  // both ends report the link
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"pcie_degraded@" + hca_bdf(3) + " mlx5_3"});
  const Finding& f = only(r, "pcie_degraded");
  EXPECT_EQ(f.severity, Severity::Error);
  EXPECT_NE(f.message.find("trained at 32.0 GT/s x8 (Gen5), both ends support 32.0 GT/s x16"), std::string::npos)
      << f.message;
  EXPECT_EQ(f.ports.at(1).node, hca_port_bdf(3) + " bridge");
  EXPECT_EQ(exit_code_for(r.findings), kExitFindings);
}

TEST_F(HostCheck, GpuAtGen4IsNamed) {
  ServerSpec s = dgx_h100();
  s.function(gpu_bdf(2)).speed = "16.0 GT/s PCIe";
  s.function(gpu_port_bdf(2)).speed = "16.0 GT/s PCIe";
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"pcie_degraded@" + gpu_bdf(2) + " GPU2"});
  const Finding& f = only(r, "pcie_degraded");
  EXPECT_NE(f.message.find("16.0 GT/s x16 (Gen4), both ends support 32.0 GT/s x16 (Gen5)"), std::string::npos)
      << f.message;
  EXPECT_EQ(exit_code_for(r.findings), kExitFindings);
}

TEST_F(HostCheck, GpuInAGen4SlotIsCappedNotDegraded) {
  ServerSpec s = dgx_h100();
  s.function(gpu_port_bdf(1)).max_speed = s.function(gpu_port_bdf(1)).speed = "16.0 GT/s PCIe";
  s.function(gpu_bdf(1)).speed = "16.0 GT/s PCIe";
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"pcie_capped@" + gpu_bdf(1) + " GPU1"});
}

TEST_F(HostCheck, SwitchUplinkAtX4IsFoundOnTheUpstreamPort) {
  ServerSpec s = dgx_h100();
  std::string usp = "0000:c1:00.0", root_port = "0000:c0:01.0";  // switch 5
  s.function(usp).width = 4;
  s.function(root_port).width = 4;
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"pcie_degraded@" + usp + " bridge"});
}

TEST_F(HostCheck, AcsOnAtOneSwitchPortIsNamed) {
  ServerSpec s = dgx_h100();
  s.function(gpu_port_bdf(5)).acs_control = 0x001d;  // SV|RR|CR|UF: what Linux sets
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"acs_p2p_redirect@" + gpu_port_bdf(5) + " bridge"});
  const Finding& f = only(r, "acs_p2p_redirect");
  EXPECT_NE(f.message.find("GPU5-mlx5_5"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("0x001d"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("setpci -s " + gpu_port_bdf(5) + " ECAP_ACS+0x6.w=0000"), std::string::npos) << f.message;
}

TEST_F(HostCheck, AcsWithoutRedirectBitsIsFine) {
  ServerSpec s = dgx_h100();
  s.function(gpu_port_bdf(5)).acs_control = 0x0011;  // SV|UF only
  EXPECT_TRUE(problems(check(s)).empty());
}

TEST_F(HostCheck, UnprivilegedConfigSpaceIsAWarningNotACrash) {
  ServerSpec s = dgx_h100();
  for (auto& f : s.functions) f.config_size = 64;
  // Port types are unknown now; the link check still finds the x8 HCA by the bridge order.
  s.function(hca_bdf(3)).width = 8;
  s.function(hca_port_bdf(3)).width = 8;
  HostReport r = check(s);
  EXPECT_EQ(problems(r), (std::vector<std::string>{"pcie_degraded@" + hca_bdf(3) + " mlx5_3",
                                                   "acs_unreadable@0000:16:00.0 bridge"}));
  const Finding& f = only(r, "acs_unreadable");
  EXPECT_EQ(f.severity, Severity::Warning);
  EXPECT_EQ(f.ports.size(), 24u);  // 3 switch ports per GPU-HCA pair
  EXPECT_NE(f.message.find("only 64 bytes"), std::string::npos) << f.message;
  EXPECT_NE(f.message.find("run as root"), std::string::npos) << f.message;
}

TEST_F(HostCheck, NoPeerMemoryIsFound) {
  ServerSpec s = dgx_h100();
  s.peer_memory.clear();
  HostReport r = check(s, DmaBuf::Unsupported);
  EXPECT_EQ(problems(r), std::vector<std::string>{"no_peer_memory@"});
  EXPECT_NE(only(r, "no_peer_memory").message.find("does not support dma-buf"), std::string::npos);
  // dma-buf alone is a GPUDirect path; so is the older nv_mem module.
  EXPECT_TRUE(problems(check(s, DmaBuf::Supported)).empty());
  s.peer_memory = {"nv_mem"};
  HostReport nv_mem = check(s, DmaBuf::Unknown);
  EXPECT_TRUE(problems(nv_mem).empty());
  EXPECT_EQ(nv_mem.inventory.peer_memory.at("nv_mem"), "1.3-0");
}

TEST_F(HostCheck, GpuWhoseHcaIsAcrossTheSocket) {
  ServerSpec s = dgx_h100();
  // mlx5_7 sits in a socket-0 slot instead of GPU7's switch on socket 1.
  std::erase_if(s.functions,
                [](const fixture::FunctionSpec& f) { return f.bdf == hca_bdf(7) || f.bdf == hca_port_bdf(7); });
  fixture::FunctionSpec port = s.function("0000:00:1c.0");
  port.bdf = "0000:00:1e.0";
  s.functions.push_back(port);
  fixture::FunctionSpec hca = s.function(hca_bdf(0));
  hca.bdf = "0000:04:00.0";
  hca.parent = port.bdf;
  hca.numa_node = 0;
  s.functions.push_back(hca);
  s.hca("mlx5_7").bdf = hca.bdf;
  HostReport r = check(s);
  EXPECT_EQ(problems(r), std::vector<std::string>{"gpu_hca_distance@" + gpu_bdf(7) + " GPU7"});
  const Finding& f = only(r, "gpu_hca_distance");
  EXPECT_EQ(f.ports.at(1).node, "0000:04:00.0 mlx5_7");
  EXPECT_EQ(f.details["distance"], "SYS");
  EXPECT_NE(f.message.find("at SYS, beyond PXB"), std::string::npos) << f.message;
  ASSERT_EQ(r.pairing.size(), 8u);
  EXPECT_EQ(r.pairing[7].distance, Distance::SYS);
}

TEST_F(HostCheck, GpuBehindASecondSwitchIsPxbFineUnlessPixIsRequired) {
  ServerSpec s = dgx_h100();
  // GPU0 moves below a second switch (upstream 1a:00.0, downstream 1b:00.0) under its port.
  auto gpu0 = std::find_if(s.functions.begin(), s.functions.end(),
                           [](const fixture::FunctionSpec& f) { return f.bdf == gpu_bdf(0); });
  fixture::FunctionSpec usp2 = s.function("0000:16:00.0"), dsp2 = s.function(gpu_port_bdf(0));
  usp2.bdf = "0000:1a:00.0";
  usp2.parent = gpu_port_bdf(0);
  dsp2.bdf = "0000:1b:00.0";
  dsp2.parent = usp2.bdf;
  gpu0->parent = dsp2.bdf;
  s.functions.insert(gpu0, {usp2, dsp2});
  // RR alone on the port where GPU0's traffic enters the first switch breaks the direct route.
  s.function(gpu_port_bdf(0)).acs_control = 0x0004;
  HostReport r = check(s);
  ASSERT_EQ(r.pairing.at(0).hca, "mlx5_0");
  EXPECT_EQ(r.pairing.at(0).distance, Distance::PXB);
  EXPECT_EQ(problems(r), std::vector<std::string>{"acs_p2p_redirect@" + gpu_port_bdf(0) + " bridge"});
  EXPECT_EQ(r.inventory.find(gpu_bdf(0))->bridges.size(), 5u);

  std::string expect = write("pix.expect", "max_distance=PIX\n");
  r = check(s, DmaBuf::Unsupported, std::nullopt, expect);
  EXPECT_EQ(problems(r), (std::vector<std::string>{"acs_p2p_redirect@" + gpu_port_bdf(0) + " bridge",
                                                   "gpu_hca_distance@" + gpu_bdf(0) + " GPU0"}));
  EXPECT_NE(only(r, "gpu_hca_distance").message.find("at PXB, beyond PIX"), std::string::npos);
}

TEST_F(HostCheck, KernelLogLinesOnThePathsAreErrorsOthersInfo) {
  std::string log = write(
      "dmesg.txt",
      "[    7.412345] mlx5_core " + hca_bdf(3) +
          ": 126.024 Gb/s available PCIe bandwidth, limited by 32.0 GT/s "
          "PCIe x4 link at " +
          hca_port_bdf(3) +
          " (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)\n"
          "[    7.412345] mlx5_core " +
          hca_bdf(3) +
          ": 126.024 Gb/s available PCIe bandwidth, limited by 32.0 GT/s "
          "PCIe x4 link at " +
          hca_port_bdf(3) +
          " (capable of 504.112 Gb/s with 32.0 GT/s PCIe x16 link)\n"
          "[    3.000000] pci 0000:02:00.0: 2.000 Gb/s available PCIe bandwidth, limited by 2.5 GT/s PCIe x1 link "
          "at 0000:00:1c.0 (capable of 4.000 Gb/s with 5.0 GT/s PCIe x1 link)\n");
  HostReport r = check(dgx_h100(), DmaBuf::Unsupported, log);
  EXPECT_EQ(problems(r), std::vector<std::string>{"pcie_limited_at_boot@" + hca_bdf(3) + " mlx5_3"});
  int info = 0;
  for (const auto& f : r.findings)
    if (f.kind == FindingKind::PcieLimitedAtBoot && f.severity == Severity::Info) {
      ++info;
      EXPECT_EQ(f.ports.front().node, "0000:02:00.0");
    }
  EXPECT_EQ(info, 1);
  EXPECT_EQ(r.inventory.kmsg_note, "read " + log);
}

TEST_F(HostCheck, ExpectationsOnCountsFirmwareRateAndPorts) {
  std::string expect = write("site.expect", "gpus=8\nhcas=8\nrate=400\nfw=28.39.1002\nlink_layer=InfiniBand\n");
  EXPECT_TRUE(problems(check(dgx_h100(), DmaBuf::Unsupported, std::nullopt, expect)).empty());

  ServerSpec s = dgx_h100();
  s.hca("mlx5_1").fw = "28.37.1014";
  s.hca("mlx5_2").ports[0].rate = "200 Gb/sec (4X HDR)";
  s.hca("mlx5_4").ports[0].state = "2: INIT";
  s.hca("mlx5_6").ports[0].link_layer = "Ethernet";
  HostReport r = check(s, DmaBuf::Unsupported, std::nullopt, expect);
  EXPECT_EQ(problems(r), (std::vector<std::string>{
                             "hca_firmware@" + hca_bdf(1) + " mlx5_1",
                             "hca_link_layer@" + hca_bdf(6) + " mlx5_6",
                             "hca_port_down@" + hca_bdf(4) + " mlx5_4",
                             "hca_rate@" + hca_bdf(2) + " mlx5_2",
                         }));
  EXPECT_EQ(only(r, "hca_port_down").ports.front().port, 1);

  // Without expectations the odd firmware and rate still stand out against the others.
  HostReport plain = check(s);
  EXPECT_EQ(only(plain, "hca_firmware").ports.front().node, hca_bdf(1) + " mlx5_1");
  EXPECT_EQ(only(plain, "hca_rate").severity, Severity::Warning);
}

TEST_F(HostCheck, MissingGpuIsCountedAndItsHcaLeftUnpaired) {
  ServerSpec s = dgx_h100();
  std::erase_if(s.functions, [](const fixture::FunctionSpec& f) { return f.bdf == gpu_bdf(6); });
  std::string expect = write("site.expect", "gpus=8\nhcas=8\n");
  HostReport r = check(s, DmaBuf::Unsupported, std::nullopt, expect);
  EXPECT_EQ(problems(r), (std::vector<std::string>{"gpu_count@", "hca_unpaired@" + hca_bdf(6) + " mlx5_6"}));
}

TEST_F(HostCheck, BadInputIsAnInputError) {
  CheckOptions o;
  o.sysfs_root = dir_.path() + "/no-such-sys";
  EXPECT_THROW(check_host(o), InputError);
  o.sysfs_root = dir_.path();
  o.expect_file = write("bad.expect", "gpus=8\nnics=8\n");
  try {
    check_host(o);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), o.expect_file);
    EXPECT_EQ(e.line(), 2);
  }
  o.expect_file.reset();
  o.kmsg_file = dir_.path() + "/no-such-log";
  EXPECT_THROW(check_host(o), InputError);
}

TEST_F(HostCheck, JsonCarriesFindingsDevicesAndPairing) {
  ServerSpec s = dgx_h100();
  s.function(hca_bdf(3)).width = 8;
  nlohmann::json j = to_json(check(s));
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["kind"], "pcie_degraded");
  EXPECT_EQ(j["findings"][0]["ports"][0]["node"], hca_bdf(3) + " mlx5_3");
  ASSERT_EQ(j["gpus"].size(), 8u);
  EXPECT_EQ(j["gpus"][0]["bdf"], gpu_bdf(0));
  EXPECT_EQ(j["gpus"][0]["link"]["max_speed_gts"], 32.0);
  ASSERT_EQ(j["hcas"].size(), 8u);
  EXPECT_EQ(j["hcas"][3]["link"]["width"], 8);
  EXPECT_EQ(j["hcas"][0]["ports"][0]["state"], "4: ACTIVE");
  ASSERT_EQ(j["pairing"].size(), 8u);
  EXPECT_EQ(j["pairing"][0]["hca"], "mlx5_0");
  EXPECT_EQ(j["pairing"][0]["distance"], "PIX");
  EXPECT_EQ(j["peer_memory"]["dmabuf"], "unsupported");
}

// This machine's own /sys: whatever it holds must be answered without a crash; without
// GPUs and HCAs the answer is "nothing to check" and ready (exit 0).
TEST(HostCheckLive, RealSysfs) {
  CheckOptions o;
  o.dmabuf_probe = probe_dmabuf_verbs;
  HostReport r = check_host(o);
  if (!r.nothing_to_check()) GTEST_SKIP() << "this machine has GPUs or HCAs";
  ASSERT_EQ(r.findings.front().kind, FindingKind::NothingToCheck);
  EXPECT_EQ(exit_code_for(r.findings), kExitOk);
  EXPECT_TRUE(r.pairing.empty());
  // The live kernel log is read, or its absence is said as an info finding.
  bool kmsg_unreadable = false;
  for (const auto& f : r.findings) kmsg_unreadable |= f.kind == FindingKind::KmsgUnreadable;
  EXPECT_TRUE(r.inventory.kmsg_note == "read /dev/kmsg" || kmsg_unreadable) << r.inventory.kmsg_note;
  EXPECT_EQ(r.inventory.dmabuf_note, "not probed: no HCA");
}

}  // namespace

// A soft-RoCE host as the kernel shows it (rdma_rxe in the QEMU guests of scripts/rdma-vm):
// class/infiniband/rxe0 with no PCI function, its netdev in `parent`. Its port is read, an
// info line names it and what cannot be checked, and nothing is an error.
TEST(HostCheckSoftDevice, RxeIsNamedNotFaulted) {
  ibburn::testing::TempDir dir;
  namespace fs = std::filesystem;
  const fs::path dev = fs::path(dir.path()) / "class/infiniband/rxe0";
  fs::create_directories(dev / "ports/1");
  fs::create_directories(fs::path(dir.path()) / "bus/pci/devices");
  auto put = [](const fs::path& p, const std::string& text) { std::ofstream(p) << text << "\n"; };
  put(dev / "parent", "data0");
  put(dev / "fw_ver", "0.0.0");
  put(dev / "node_guid", "5054:00ff:fe01:0100");
  put(dev / "ports/1/state", "4: ACTIVE");
  put(dev / "ports/1/phys_state", "5: LinkUp");
  put(dev / "ports/1/rate", "2.5 Gb/sec (1X SDR)");
  put(dev / "ports/1/link_layer", "Ethernet");
  HostReport r = evaluate(read_inventory(dir.path()), Expectations{});
  EXPECT_TRUE(r.inventory.hcas.empty());
  ASSERT_EQ(r.inventory.soft_hcas.size(), 1u);
  EXPECT_EQ(r.inventory.soft_hcas[0].parent, "data0");
  ASSERT_EQ(r.findings.size(), 1u) << to_json(r).dump(2);
  EXPECT_EQ(r.findings[0].severity, Severity::Info);
  EXPECT_EQ(r.findings[0].message,
            "rxe0: a software RDMA device on data0 (port 1 4: ACTIVE, Ethernet): no PCIe link, firmware or GPU "
            "affinity to check");
  EXPECT_EQ(exit_code_for(r.findings), kExitOk);
}
