#pragma once
// One self-contained HTML page for a run (inline CSS, JS and SVG; nothing fetched): the
// verdict, what to do (report/page_sections.h), the fabric, bandwidth over time, the nights
// before, then the evidence. Readable printed (page.css's print rules).
#include <string>

#include "report/history_nights.h"
#include "report/run_data.h"
#include "topo/fabric.h"

namespace ibburn::report {

std::string html_escape(const std::string& s);

// fabric may be null (no picture then), nights too (no nights side by side). The page
// records script errors into #js-errors, so a headless browser's DOM dump shows them.
std::string html_report(const RunData& run, const topo::Fabric* fabric, const std::string& title,
                        const Nights* nights = nullptr);

}  // namespace ibburn::report
