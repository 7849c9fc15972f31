#pragma once
// `ibburn report DIR` end to end: the HTML page (with the fabric's map when a fabric is
// given), Prometheus textfile, history record. Returns the exit code.
#include <iosfwd>
#include <string>

#include "topo/fabric_source.h"

namespace ibburn::report {

struct ReportCommandOptions {
  std::string dir;            // run directory
  std::string html;           // -o: HTML page; empty: none
  topo::FabricSource fabric;  // for the map; used only when `with_fabric`
  bool with_fabric = false;
  const topo::Fabric* loaded = nullptr;  // a fabric already in memory (`ibburn run`'s), in place of `fabric`
  std::string prometheus;                // .prom textfile; empty: none
  std::string history;                   // SQLite database to record the run in (and show the nights of); empty: none
  std::string nights;                    // a database the run is already in, to show the nights of (`ibburn run`)
  long long unix_time = 0;               // when the run is recorded
};

// The run's verdict on `err` (and the recorded run's id): PASS or FAIL exit 0 (the run's own
// exit code judged it), INCOMPLETE exit 1 (run_verdict.h), a directory with no run exit 2.
int report_command(const ReportCommandOptions& options, std::ostream& err);

}  // namespace ibburn::report
