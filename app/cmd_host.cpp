// `ibburn host check`: per-host GPUDirect preflight (host/host_command.h).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "host/host_command.h"
#include "slurm/host_check.h"

namespace ibburn::app {
namespace {

void add_host_check(CLI::App& root) {
  CLI::App& host = group(root, "host", "Per-host checks before a burn");
  CLI::App* check = host.add_subcommand("check",
                                        "Is this host ready for a GPUDirect burn: PCIe links, ACS, peer memory, "
                                        "GPU-HCA distance and pairing, HCA firmware and ports");
  auto opts = std::make_shared<host::CheckOptions>();
  auto expect = std::make_shared<std::string>();
  auto kmsg = std::make_shared<std::string>();
  auto json_out = std::make_shared<std::string>();
  check->add_option("--sysfs-root", opts->sysfs_root, "sysfs tree to read instead of /sys");
  check->add_option("--kmsg", *kmsg, "kernel log file to scan (default: /dev/kmsg on the live system)");
  check->add_option("--expect", *expect,
                    "expectations file: key=value lines (gpus, hcas, rate, fw, "
                    "link_layer, max_distance)");
  check->add_option("--json", *json_out, "write the report as JSON to this file");
  auto slurm = std::make_shared<slurm::HostCheckSlurmOptions>();
  auto as_slurm = std::make_shared<bool>(false);
  check->add_flag("--slurm", *as_slurm,
                  "as Slurm's HealthCheckProgram or prolog: a failing check drains this node with its reason");
  check->add_option("--slurm-node", slurm->node, "this host's Slurm node (default $SLURMD_NODENAME, else hostname)");
  check->add_option("--slurm-node-map", slurm->node_map, "HOST NODENAME lines: Slurm's node for a host");
  check->add_option("--slurm-log", slurm->log, "append what was done to Slurm to this file (JSON lines)");
  check->callback([=] {
    host::CheckOptions o = *opts;
    if (!kmsg->empty()) o.kmsg_file = *kmsg;
    if (!expect->empty()) o.expect_file = *expect;
    set_exit_code(*as_slurm ? slurm::run_host_check_slurm(o, *json_out, *slurm, std::cout)
                            : host::host_check_command(o, *json_out, std::cout));
  });
}

const Registrar registrar(add_host_check);

}  // namespace
}  // namespace ibburn::app
