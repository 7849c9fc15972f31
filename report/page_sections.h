#pragma once
// The page's sections (report/html_report.cpp puts them in order), each a thin string
// builder over pure data: the actions (report/service_lists.h), the fabric's picture
// (report/fabric_views.h), bandwidth over time (report/bandwidth_series.h), nights side by
// side (report/history_nights.h). Data for report/page.js goes in as JSON in a script element.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/bandwidth_series.h"
#include "report/fabric_views.h"
#include "report/history_nights.h"
#include "report/run_data.h"

namespace ibburn::report {

// `var NAME = JSON;` in a script element, every "<" escaped so the data cannot end it.
std::string script_data(const std::string& name, const nlohmann::json& data);

// Under the verdict: the systemic causes, then the hosts to drain and the cables to service,
// each list with a copy-as-text button.
std::string actions_section(const RunData& run, const std::vector<Finding>& findings);
// The legend, the search box, the SVG page.js draws the views in, and their data.
std::string fabric_section(const FabricPicture& picture);
// One chart per stage: the per-second spread of the directions' Gb/s, the median, line rate
// and the slowest directions' own lines (inline SVG, drawn here: it prints without script).
std::string bandwidth_section(const std::vector<StageBandwidth>& stages);
std::string nights_section(const Nights& nights);

}  // namespace ibburn::report
