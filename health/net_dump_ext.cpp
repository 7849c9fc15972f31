#include "health/net_dump_ext.h"

#include <cstdint>

#include "common/error.h"
#include "health/number_text.h"
#include "topo/text_scan.h"

namespace ibburn::health {
namespace {

// The first `count` - 1 fields split at ':', the last the rest of the line; each trimmed.
std::vector<std::string_view> fields(std::string_view line, size_t count) {
  std::vector<std::string_view> out;
  while (out.size() + 1 < count) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) break;
    out.push_back(topo::scan::trim(line.substr(0, colon)));
    line.remove_prefix(colon + 1);
  }
  out.push_back(topo::scan::trim(line));
  return out;
}

bool no_value(std::string_view v) { return v.empty() || v == "N/A" || v == "NA"; }

}  // namespace

NetDumpExt parse_net_dump_ext(const std::string& text, const std::string& origin) {
  NetDumpExt out;
  topo::scan::LineReader reader(text);
  std::string_view raw;
  std::vector<std::string> header;
  int guid = -1, port = -1, fec = -1, raw_ber = -1, effective = -1, symbol = -1;
  while (reader.next(raw)) {
    const int lineno = reader.number();
    std::string_view line = topo::scan::trim(raw);
    if (line.empty() || line.starts_with('#')) continue;
    if (header.empty()) {
      if (!line.starts_with("Ty ")) {
        ++out.stray_lines;
        continue;
      }
      for (std::string_view f : fields(line, SIZE_MAX)) header.emplace_back(f);
      auto column = [&](const char* name, bool needed) {
        for (size_t i = 0; i < header.size(); ++i)
          if (header[i] == name) return static_cast<int>(i);
        if (needed) throw InputError(origin, lineno, std::string("no column ") + name);
        return -1;
      };
      guid = column("GUID", true);
      port = column("#IB", true);
      fec = column("FEC mode", false);
      raw_ber = column("Raw BER", false);
      effective = column("Effective BER", false);
      symbol = column("Symbol BER", false);
      continue;
    }
    const std::vector<std::string_view> f = fields(line, header.size());
    if (f.size() != header.size())
      throw InputError(origin, lineno,
                       "row has " + std::to_string(f.size()) + " fields, its header " + std::to_string(header.size()));
    PortPhy p;
    p.line = lineno;
    std::string_view g = f[static_cast<size_t>(guid)];
    if (g.starts_with("0x")) g.remove_prefix(2);
    auto gv = parse_number<uint64_t>(g, 16);
    auto pv = parse_number<int>(f[static_cast<size_t>(port)]);
    if (!gv || !pv) throw InputError(origin, lineno, "expected a GUID and a port number");
    p.guid = *gv;
    p.port = *pv;
    if (fec >= 0 && !no_value(f[static_cast<size_t>(fec)])) p.fec = f[static_cast<size_t>(fec)];
    for (auto [column, into] :
         {std::pair{raw_ber, &p.raw_ber}, std::pair{effective, &p.effective_ber}, std::pair{symbol, &p.symbol_ber}}) {
      if (column < 0 || no_value(f[static_cast<size_t>(column)])) continue;
      *into = parse_number<double>(f[static_cast<size_t>(column)]);
      if (!*into)
        throw InputError(origin, lineno,
                         header[static_cast<size_t>(column)] + " '" + std::string(f[static_cast<size_t>(column)]) +
                             "' is not a number");
    }
    out.ports.push_back(std::move(p));
  }
  if (header.empty()) throw InputError(origin, 0, "no header row (`Ty : # : #IB : GUID ...`)");
  return out;
}

}  // namespace ibburn::health
