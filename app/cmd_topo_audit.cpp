// `ibburn topo audit`: partitions, keys, subnet managers and MTU against the site's intent
// (audit/audit_command.h, docs/audit.md).
#include <iostream>
#include <memory>

#include "app/command.h"
#include "app/fabric_options.h"
#include "audit/audit_command.h"

namespace ibburn::app {

void add_audit_policy_options(CLI::App& cmd, audit::PolicyOptions& p) {
  cmd.add_option("--partitions", p.partitions, "opensm's partitions.conf: the P_Key tables every port should hold");
  cmd.add_option("--mtu", p.mtu, "the active MTU every link should run (bytes: 2048, 4096)");
  cmd.add_option("--sm-hosts", p.sm_hosts, "the hosts a subnet manager may run on (comma-separated)")->delimiter(',');
  cmd.add_flag("--require-mkey", p.require_mkey, "every port must have M_Key protection set");
}

namespace {

Registrar reg([](CLI::App& root) {
  CLI::App& topo = group(root, "topo", "Fabric topology: discover, show, check against the wiring plan");
  auto o = std::make_shared<audit::AuditCommandOptions>();
  CLI::App& cmd = *topo.add_subcommand(
      "audit",
      "Audit partitions (P_Key tables), M_Keys, subnet managers and MTU against the site's policy; reads only (Get "
      "SMPs); exit 0 = as intended, 1 = findings, 2 = bad input");
  add_fabric_options(cmd, o->fabric);
  add_audit_policy_options(cmd, o->policy);
  cmd.add_option("--json", o->json, "Write {\"findings\": [...]} to this file");
  cmd.callback([o] { set_exit_code(audit::audit_command(*o, std::cout)); });
});

}  // namespace
}  // namespace ibburn::app
