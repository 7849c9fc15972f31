#pragma once
// ibdiagnet2.db_csv: sections `START_<NAME>`, a header row, data rows, `END_<NAME>`, with
// '#' comments and blank lines between them. Fields are read by header name, never by
// position: each ibdiagnet version adds columns. The fabric loader (topo/db_csv_fabric),
// the counters snapshot (counters/pm_info_snapshot) and `ibburn health` read the sections
// they need through SectionReader.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ibburn::topo {

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

// The first line that is not a '#' comment or blank opens a section: the text is a db_csv.
bool looks_like_db_csv(const std::string& text);

// Reads columns of one section by name; a missing column or a bad number names the row.
class SectionReader {
 public:
  SectionReader(const DbCsv& db, const CsvSection& s) : db_(db), s_(s) {}
  size_t rows() const { return s_.rows.size(); }
  int line(size_t row) const { return s_.lines[row]; }
  // The column's index; throws InputError naming the section when it is missing.
  int need(const std::string& column) const;
  // A decimal or 0x-hexadecimal number; throws InputError naming the row otherwise.
  uint64_t number(size_t row, int column) const;
  const std::string& text(size_t row, int column) const { return s_.rows[row][static_cast<size_t>(column)]; }
  // Throws InputError at the row's line.
  [[noreturn]] void fail(size_t row, const std::string& reason) const;

 private:
  // The header's line: the row before the first, or unknown (0) for an empty section.
  int section_line() const { return s_.lines.empty() ? 0 : s_.lines.front() - 1; }
  const DbCsv& db_;
  const CsvSection& s_;
};

// The db_csv `path` stands for: the file itself when its name ends in `.db_csv`, a
// directory's `ibdiagnet2.db_csv` (an ibdiagnet output directory), else empty.
std::string db_csv_file(const std::string& path);

}  // namespace ibburn::topo
