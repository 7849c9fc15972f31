#include "topo/db_csv.h"

#include <charconv>
#include <filesystem>

#include "common/error.h"
#include "common/text.h"
#include "topo/text_scan.h"

namespace ibburn::topo {

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
  scan::LineReader reader(text);
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

bool looks_like_db_csv(const std::string& text) {
  scan::LineReader reader(text);
  std::string_view raw;
  while (reader.next(raw)) {
    std::string_view line = trim(raw);
    if (line.empty() || line.starts_with("#")) continue;
    return line.starts_with("START_");
  }
  return false;
}

int SectionReader::need(const std::string& column) const {
  int c = s_.column(column);
  if (c < 0) throw InputError(db_.origin, section_line(), s_.name + " has no column " + column);
  return c;
}

uint64_t SectionReader::number(size_t row, int column) const {
  const std::string& v = text(row, column);
  std::string_view digits = v;
  int base = 10;
  if (digits.starts_with("0x") || digits.starts_with("0X")) {
    digits.remove_prefix(2);
    base = 16;
  }
  uint64_t n = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), n, base);
  if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size())
    fail(row, s_.header[static_cast<size_t>(column)] + " '" + v + "' is not a number");
  return n;
}

void SectionReader::fail(size_t row, const std::string& reason) const {
  throw InputError(db_.origin, s_.lines[row], reason);
}

std::string db_csv_file(const std::string& path) {
  if (path.ends_with(".db_csv")) return path;
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return "";
  std::filesystem::path inside = std::filesystem::path(path) / "ibdiagnet2.db_csv";
  return std::filesystem::is_regular_file(inside, ec) ? inside.string() : "";
}

}  // namespace ibburn::topo
