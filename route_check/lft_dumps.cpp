#include "route_check/lft_dumps.h"

#include "common/error.h"
#include "common/file_io.h"
#include "routing/lft_reader.h"
#include "topo/text_scan.h"

namespace ibburn::route_check {
namespace {

namespace scan = topo::scan;

bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The GUID after `marker` on a switch's header line.
uint64_t header_guid(std::string_view line, std::string_view marker, const std::string& path, int number) {
  const size_t at = line.find(marker);
  std::string_view rest = line.substr(at + marker.size());
  const std::string_view token = scan::next_token(rest);
  const auto guid = scan::parse_hex64(token);
  if (!guid) throw InputError(path, number, scan::bad_guid_reason("switch GUID", token));
  return *guid;
}

void set_entry(std::vector<uint8_t>& lft, uint32_t lid, int port) {
  if (lft.size() <= lid) lft.resize(static_cast<size_t>(lid) + 1, routing::ForwardingTables::kNoRoute);
  lft[lid] = static_cast<uint8_t>(port);
}

}  // namespace

routing::ForwardingTables parse_lft_text(std::string_view text, const std::string& path) {
  routing::ForwardingTables out;
  std::vector<uint8_t>* lft = nullptr;
  scan::LineReader lines(text);
  std::string_view line;
  bool any_header = false;
  while (lines.next(line)) {
    const std::string_view s = scan::skip_space(line);
    if (s.empty() || s.front() == '#' || starts(s, "LID") || starts(s, "PLFT_NUM") || starts(s, "No ") ||
        s.find("lids dumped") != std::string_view::npos)
      continue;
    const int number = lines.number();
    if (s.find("dump_ucast_routes: Switch ") != std::string_view::npos) {
      lft = &out.by_switch_guid[header_guid(s, "dump_ucast_routes: Switch ", path, number)];
      any_header = true;
      continue;
    }
    if (starts(s, "Unicast lids [")) {
      const size_t g = s.find(" guid ");
      if (g == std::string_view::npos) throw InputError(path, number, "a switch header without ' guid 0x...'");
      lft = &out.by_switch_guid[header_guid(s, " guid ", path, number)];
      any_header = true;
      continue;
    }
    if (!starts(s, "0x"))
      throw InputError(path, number,
                       "expected a switch header (dump_ucast_routes: Switch 0x..., Unicast lids [...] of switch ...) "
                       "or a '0x<LID> <port>' entry, got " +
                           scan::quote(s));
    if (!lft) throw InputError(path, number, "an entry before any switch header");
    std::string_view rest = s;
    const std::string_view lid_token = scan::next_token(rest);
    const auto lid = scan::parse_hex64(lid_token);
    if (!lid || *lid > 0xBFFF) throw InputError(path, number, "not a unicast LID: " + scan::quote(lid_token));
    std::string_view port_token = scan::next_token(rest);
    if (port_token == ":") port_token = scan::next_token(rest);
    if (port_token == "UNREACHABLE") {
      set_entry(*lft, static_cast<uint32_t>(*lid), routing::ForwardingTables::kNoRoute);
      continue;
    }
    const auto port = scan::parse_uint(port_token, 254);
    if (!port) throw InputError(path, number, "not a port number: " + scan::quote(port_token));
    set_entry(*lft, static_cast<uint32_t>(*lid), static_cast<int>(*port));
  }
  if (!any_header) throw InputError(path, 0, "no switch's table in it (not an .fdbs or opensm-lfts.dump file)");
  return out;
}

routing::ForwardingTables load_lfts(const std::string& path) {
  const std::string text = read_file(path);
  if (scan::first_significant_line(text).substr(0, 1) == "{") return routing::load_lfts_json(path);
  return parse_lft_text(text, path);
}

}  // namespace ibburn::route_check
