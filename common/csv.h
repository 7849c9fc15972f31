#pragma once
// One line of a CSV file as the site's files are written (the wiring list, `ibburn run`'s
// cables.csv): read by the wiring list and by the report, so both quote alike.
#include <string>
#include <string_view>
#include <vector>

namespace ibburn {

// Splits one line into fields: RFC 4180 quoting ("" inside quotes is a quote), '#' outside
// quotes starts a comment, unquoted fields are trimmed. Empty result = blank/comment line.
// A bad quote is an InputError naming origin:lineno.
std::vector<std::string> split_csv_line(std::string_view line, const std::string& origin, int lineno);

}  // namespace ibburn
