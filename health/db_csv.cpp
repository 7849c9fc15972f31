#include "health/db_csv.h"

#include <unordered_map>

#include "common/error.h"
#include "common/text.h"
#include "health/number_text.h"
#include "topo/text_scan.h"

namespace ibburn::health {

int CsvSection::column(const std::string& c) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == c) return static_cast<int>(i);
  return -1;
}

const CsvSection* DbCsv::find(const std::string& name) const {
  auto it = sections.find(name);
  return it == sections.end() ? nullptr : &it->second;
}

namespace {

// One CSV record: commas separate, double quotes enclose, "" inside quotes is a quote.
std::vector<std::string> split_csv(std::string_view line, const std::string& origin, int lineno) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c != '"') {
        out.back() += c;
      } else if (i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else {
        quoted = false;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) throw InputError(origin, lineno, "unterminated quote");
  return out;
}

}  // namespace

DbCsv parse_db_csv(const std::string& text, const std::string& origin) {
  DbCsv db;
  db.origin = origin;
  CsvSection* open = nullptr;
  bool want_header = false;
  int open_line = 0;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  while (reader.next(raw)) {
    const int lineno = reader.number();
    std::string_view line = trim(raw);
    if (!open) {
      if (line.starts_with("START_")) {
        std::string name(line.substr(6));
        if (db.sections.count(name)) throw InputError(origin, lineno, "section " + name + " appears twice");
        open = &db.sections[name];
        open->name = name;
        want_header = true;
        open_line = lineno;
      } else if (!line.empty() && !line.starts_with("#")) {
        ++db.stray_lines;
      }
      continue;
    }
    if (line == "END_" + open->name) {
      if (want_header) throw InputError(origin, lineno, "section " + open->name + " has no header row");
      open = nullptr;
      continue;
    }
    if (line.starts_with("START_") || line.starts_with("END_"))
      throw InputError(origin, lineno, std::string(line) + " inside section " + open->name);
    if (line.empty()) continue;
    std::vector<std::string> fields = split_csv(line, origin, lineno);
    if (want_header) {
      open->header = std::move(fields);
      want_header = false;
      continue;
    }
    if (fields.size() != open->header.size())
      throw InputError(origin, lineno,
                       open->name + " row has " + std::to_string(fields.size()) + " fields, its header " +
                           std::to_string(open->header.size()));
    open->rows.push_back(std::move(fields));
    open->lines.push_back(lineno);
  }
  if (open) throw InputError(origin, open_line, "section " + open->name + " has no END_" + open->name);
  return db;
}

namespace {

// Reads columns of one section by name; a missing column or a bad number names the row.
class SectionReader {
 public:
  SectionReader(const DbCsv& db, const CsvSection& s) : db_(db), s_(s) {}
  int need(const std::string& column) const {
    int c = s_.column(column);
    if (c < 0) throw InputError(db_.origin, section_line(), s_.name + " has no column " + column);
    return c;
  }
  uint64_t number(size_t row, int column) const {
    const std::string& v = s_.rows[row][static_cast<size_t>(column)];
    std::string_view digits = v;
    int base = 10;
    if (digits.starts_with("0x") || digits.starts_with("0X")) {
      digits.remove_prefix(2);
      base = 16;
    }
    if (auto n = parse_number<uint64_t>(digits, base)) return *n;
    throw InputError(db_.origin, s_.lines[row],
                     s_.header[static_cast<size_t>(column)] + " '" + v + "' is not a number");
  }
  const std::string& text(size_t row, int column) const { return s_.rows[row][static_cast<size_t>(column)]; }

 private:
  // The header's line: the row before the first, or unknown (0) for an empty section.
  int section_line() const { return s_.lines.empty() ? 0 : s_.lines.front() - 1; }
  const DbCsv& db_;
  const CsvSection& s_;
};

std::string dotted(uint64_t major, uint64_t minor, uint64_t sub) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(sub);
}

}  // namespace

std::vector<DiagNode> diag_nodes(const DbCsv& db) {
  std::vector<DiagNode> out;
  std::unordered_map<uint64_t, size_t> by_guid;
  const CsvSection* nodes = db.find("NODES");
  if (!nodes) throw InputError(db.origin, 0, "no NODES section");
  {
    SectionReader r(db, *nodes);
    int guid = r.need("NodeGUID"), desc = r.need("NodeDesc"), type = r.need("NodeType");
    for (size_t i = 0; i < nodes->rows.size(); ++i) {
      DiagNode n;
      n.guid = r.number(i, guid);
      n.description = r.text(i, desc);
      n.is_switch = r.number(i, type) == 2;
      if (by_guid.emplace(n.guid, out.size()).second) out.push_back(std::move(n));
    }
  }
  auto node_at = [&](const SectionReader& r, const CsvSection& s, size_t row, int guid_col) -> DiagNode& {
    uint64_t guid = r.number(row, guid_col);
    auto it = by_guid.find(guid);
    if (it == by_guid.end()) throw InputError(db.origin, s.lines[row], s.name + " names a node NODES lacks");
    return out[it->second];
  };
  if (const CsvSection* info = db.find("NODES_INFO")) {
    SectionReader r(db, *info);
    int guid = r.need("NodeGUID"), dev = r.need("HWInfo_DeviceID"), psid = r.need("FWInfo_PSID");
    int major = r.need("FWInfo_Major"), minor = r.need("FWInfo_Minor"), sub = r.need("FWInfo_SubMinor");
    int emajor = r.need("FWInfo_Extended_Major"), eminor = r.need("FWInfo_Extended_Minor"),
        esub = r.need("FWInfo_Extended_SubMinor");
    for (size_t i = 0; i < info->rows.size(); ++i) {
      DiagNode& n = node_at(r, *info, i, guid);
      n.device_id = r.text(i, dev);
      n.psid = r.text(i, psid);
      // Newer firmware leaves the 8-bit fields 0 and writes its version in the extended ones.
      uint64_t em = r.number(i, emajor), en = r.number(i, eminor), es = r.number(i, esub);
      n.firmware =
          em || en || es ? dotted(em, en, es) : dotted(r.number(i, major), r.number(i, minor), r.number(i, sub));
    }
  }
  if (const CsvSection* temps = db.find("TEMP_SENSING")) {
    SectionReader r(db, *temps);
    int guid = r.need("NodeGUID"), current = r.need("CurrentTemperature");
    for (size_t i = 0; i < temps->rows.size(); ++i)
      node_at(r, *temps, i, guid).temperature_c = static_cast<double>(r.number(i, current));
  }
  return out;
}

}  // namespace ibburn::health
