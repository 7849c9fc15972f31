// `ibburn host check`: per-host GPUDirect preflight (host/host_check.h).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "common/file_io.h"
#include "host/host_check.h"

namespace ibburn::app {
namespace {

void add_host_check(CLI::App& root) {
  CLI::App& host = group(root, "host", "Per-host checks before a burn");
  CLI::App* check = host.add_subcommand(
      "check", "Is this host ready for a GPUDirect burn: PCIe links, ACS, peer memory, "
               "GPU-HCA distance and pairing, HCA firmware and ports");
  auto opts = std::make_shared<host::CheckOptions>();
  auto expect = std::make_shared<std::string>();
  auto kmsg = std::make_shared<std::string>();
  auto json_out = std::make_shared<std::string>();
  check->add_option("--sysfs-root", opts->sysfs_root, "sysfs tree to read instead of /sys");
  check->add_option("--kmsg", *kmsg, "kernel log file to scan (default: /dev/kmsg on the live system)");
  check->add_option("--expect", *expect, "expectations file: key=value lines (gpus, hcas, rate, fw, "
                                          "link_layer, max_distance)");
  check->add_option("--json", *json_out, "write the report as JSON to this file");
  check->callback([=] {
    host::CheckOptions o = *opts;
    if (!kmsg->empty()) o.kmsg_file = *kmsg;
    if (!expect->empty()) o.expect_file = *expect;
    host::HostReport report = host::check_host(o);
    host::print_report(std::cout, report);
    if (!json_out->empty()) write_file_atomic(*json_out, host::to_json(report).dump(2) + "\n");
    set_exit_code(exit_code_for(report.findings));
  });
}

const Registrar registrar(add_host_check);

}  // namespace
}  // namespace ibburn::app
