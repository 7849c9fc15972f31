#pragma once
// One self-contained HTML page for a run (inline CSS, JS and SVG; nothing fetched).
#include <string>

#include "report/run_data.h"
#include "topo/fabric.h"

namespace ibburn::report {

std::string html_escape(const std::string& s);

// fabric may be null (no map then). The page records script errors into #js-errors, so a
// headless browser's DOM dump shows them.
std::string html_report(const RunData& run, const topo::Fabric* fabric, const std::string& title);

}  // namespace ibburn::report
