#include "audit/audit_command.h"

#include <ostream>

#include <fmt/format.h>

#include "audit/audit_capture.h"
#include "audit/audit_reads.h"
#include "common/error.h"
#include "common/file_io.h"
#include "topo/db_csv.h"
#include "topo/mad_window.h"

namespace ibburn::audit {

AuditPolicy load_policy(const PolicyOptions& o) {
  AuditPolicy p;
  if (!o.partitions.empty()) p.partitions = parse_partitions(read_file(o.partitions), o.partitions);
  if (o.mtu != 0) {
    if (o.mtu < 256 || o.mtu > 4096 || (o.mtu & (o.mtu - 1)))
      throw InputError("--mtu", 0, fmt::format("{} is not an InfiniBand MTU (256, 512, 1024, 2048, 4096)", o.mtu));
    p.mtu = o.mtu;
  }
  p.sm_hosts = o.sm_hosts;
  p.require_mkey = o.require_mkey;
  return p;
}

std::vector<Finding> audit_fabric(const topo::Fabric& fabric, const topo::MadOptions& mad, const AuditPolicy& policy,
                                  std::vector<std::string>& notes) {
  topo::MadWindow window(mad, topo::kSmpWindow);
  AuditReads reads = read_audit(fabric, window);
  notes.insert(notes.end(), reads.unanswered.begin(), reads.unanswered.end());
  return audit(reads.ports, reads.sms, policy);
}

int audit_command(const AuditCommandOptions& o, std::ostream& out) {
  // A capture instead of the live fabric: one ibdiagnet output (its ibdiagnet2.db_csv).
  std::string capture;
  if (!o.fabric.is_live()) {
    if (o.fabric.files.size() == 1) capture = topo::db_csv_file(o.fabric.files[0]);
    if (capture.empty())
      throw InputError("--fabric", 0,
                       "the audit reads P_Key tables, M_Keys and SMs: give --fabric live, or an ibdiagnet output "
                       "(its directory or ibdiagnet2.db_csv)");
  }
  const AuditPolicy policy = load_policy(o.policy);  // bad input before the fabric is touched
  const topo::Fabric fabric = o.fabric.load();
  std::vector<std::string> notes;
  std::vector<Finding> findings;
  if (capture.empty()) {
    findings = audit_fabric(fabric, o.fabric.live.mad, policy, notes);
  } else {
    const AuditReads reads = audit_reads_from_capture(topo::parse_db_csv(read_file(capture), capture), fabric);
    findings = audit(reads.ports, reads.sms, policy);
  }
  for (const auto& n : notes) out << "audit: not answered: " << n << "\n";
  print_summary(out, "topo audit", findings);
  if (!o.json.empty()) write_file_atomic(o.json, findings_to_json(findings).dump(2) + "\n");
  return exit_code_for(findings);
}

}  // namespace ibburn::audit
