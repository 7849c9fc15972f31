#include "common/csv.h"

#include "common/error.h"
#include "common/text.h"

namespace ibburn {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t'; }
}  // namespace

std::vector<std::string> split_csv_line(std::string_view line, const std::string& origin, int lineno) {
  std::vector<std::string> fields;
  std::string field;
  size_t i = 0;
  bool any = false;  // whether the line holds anything but blanks before a comment
  while (true) {
    // one field
    while (i < line.size() && is_blank(line[i])) ++i;
    if (i < line.size() && line[i] == '"') {
      ++i;
      field.clear();
      while (true) {
        if (i >= line.size()) throw InputError(origin, lineno, "unterminated quoted field");
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      while (i < line.size() && is_blank(line[i])) ++i;
      if (i < line.size() && line[i] != ',' && line[i] != '#')
        throw InputError(origin, lineno, "unexpected text after a quoted field");
      any = true;
    } else {
      size_t start = i;
      while (i < line.size() && line[i] != ',' && line[i] != '#') {
        if (line[i] == '"')
          throw InputError(origin, lineno, "a quote inside an unquoted field (quote the whole field)");
        ++i;
      }
      field = std::string(trim(line.substr(start, i - start)));
      if (!field.empty()) any = true;
    }
    fields.push_back(std::move(field));
    field.clear();
    if (i < line.size() && line[i] == ',') {
      any = true;
      ++i;
      continue;
    }
    break;  // end of line or comment
  }
  if (!any) fields.clear();
  return fields;
}

}  // namespace ibburn
