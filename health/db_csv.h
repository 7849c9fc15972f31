#pragma once
// ibdiagnet2.db_csv: sections `START_<NAME>`, a header row, data rows, `END_<NAME>`, with
// '#' comments and blank lines between them. Fields are read by header name, never by
// position: each ibdiagnet version adds columns. The generic reader keeps every section;
// the typed views below pick the few this module judges.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ibburn::health {

struct CsvSection {
  std::string name;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as long as the header
  std::vector<int> lines;                      // the 1-based line of each row
  // The column named `column`, or -1.
  int column(const std::string& column) const;
};

struct DbCsv {
  std::string origin;  // the file, for messages
  std::map<std::string, CsvSection> sections;
  size_t stray_lines = 0;  // text outside any section that is not a '#' comment: tolerated, counted
  const CsvSection* find(const std::string& name) const;
};

// Throws InputError(origin:line) on an unterminated section, a row whose field count differs
// from its header's, or an unterminated quote.
DbCsv parse_db_csv(const std::string& text, const std::string& origin);

// NODES, NODES_INFO and TEMP_SENSING joined by node GUID.
struct DiagNode {
  uint64_t guid = 0;
  std::string description;              // NodeDesc
  bool is_switch = false;               // NodeType 2
  std::string device_id;                // "0xd2f2", as NODES_INFO writes it
  std::string psid;                     // empty when NODES_INFO has no row for the node
  std::string firmware;                 // "31.2012.1024"; FWInfo_Extended_* when set, else Major.Minor.SubMinor
  std::optional<double> temperature_c;  // TEMP_SENSING CurrentTemperature
};

// Throws InputError naming the section's row when a needed column is missing or a value is
// not a number.
std::vector<DiagNode> diag_nodes(const DbCsv& db);

}  // namespace ibburn::health
