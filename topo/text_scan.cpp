#include "topo/text_scan.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "common/error.h"
#include "common/guid.h"

namespace ibburn::topo::scan {

bool LineReader::next(std::string_view& line) {
  if (pos_ >= text_.size()) return false;
  const char* start = text_.data() + pos_;
  const void* nl = std::memchr(start, '\n', text_.size() - pos_);
  size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - start) : text_.size() - pos_;
  line = std::string_view(start, len);
  pos_ += len + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++number_;
  return true;
}

std::string_view skip_space(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  return s;
}

std::string_view next_token(std::string_view& s) {
  s = skip_space(s);
  size_t n = 0;
  while (n < s.size() && !is_space(s[n])) ++n;
  std::string_view tok = s.substr(0, n);
  s.remove_prefix(n);
  return tok;
}

std::optional<uint32_t> parse_uint(std::string_view s, uint32_t max) {
  if (s.empty() || s.size() > 10) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  if (v > max) return std::nullopt;
  return static_cast<uint32_t>(v);
}

std::optional<uint64_t> parse_hex64(std::string_view s) {
  auto g = Guid::parse(s);
  if (!g) return std::nullopt;
  return g->value;
}

std::string hex(uint64_t v, bool pad16) {
  char buf[20];
  std::snprintf(buf, sizeof buf, pad16 ? "%016" PRIx64 : "%" PRIx64, v);
  return buf;
}

std::string quote(std::string_view s) {
  constexpr size_t kMax = 60;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (s.size() > kMax) out += "...";
  return out + "'";
}

namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// `file.c:123; ` as libibnetdisc's IBND_ERROR and old libibmad messages begin.
bool source_location_prefix(std::string_view s) {
  size_t semi = s.find("; ");
  if (semi == std::string_view::npos) return false;
  std::string_view loc = s.substr(0, semi);
  size_t colon = loc.rfind(':');
  if (colon == std::string_view::npos || !all_digits(loc.substr(colon + 1))) return false;
  std::string_view file = loc.substr(0, colon);
  return file.size() > 2 && file.ends_with(".c") && file.find_first_of(" \t\"") == std::string_view::npos;
}

}  // namespace

bool is_tool_noise(std::string_view s) {
  if (s.starts_with("DR path slid ")) return true;
  if (s.starts_with("Lid ")) {  // portid2str of a LID-routed path with a DR part
    std::string_view rest = s.substr(4);
    std::string_view lid = next_token(rest);
    if (all_digits(lid) && skip_space(rest).starts_with("DR path ")) return true;
  }
  for (std::string_view tag : {"ibwarn: ", "ibdebug: ", "ibpanic: ", "iberror: "})
    if (s.starts_with(tag)) return true;
  // `ibnetdiscover: iberror: failed: ...` (the program name may be empty).
  if (size_t at = s.find(": iberror: ");
      at != std::string_view::npos && s.substr(0, at).find(' ') == std::string_view::npos)
    return true;
  return source_location_prefix(s);
}

bool is_elision(std::string_view s) { return s.size() >= 3 && s.find_first_not_of('.') == std::string_view::npos; }

std::string_view first_significant_line(std::string_view text) {
  LineReader reader(text);
  std::string_view line;
  while (reader.next(line)) {
    std::string_view s = trim(line);
    if (!s.empty() && s.front() != '#' && !is_tool_noise(s) && !is_elision(s)) return s;
  }
  return {};
}

void NoiseLines::add(int line, std::string_view text) {
  if (count_++ == 0) {
    first_line_ = line;
    first_ = std::string(text);
  }
}

std::string NoiseLines::warning(const std::string& origin) const {
  if (count_ == 0) return {};
  return origin + ": skipped " + std::to_string(count_) + (count_ == 1 ? " line" : " lines") +
         " of diagnostic tool messages (the first, line " + std::to_string(first_line_) + ": " + quote(first_) + ")";
}

void DanglingPeers::add(std::string peer, int line) {
  ++ports_;
  if (seen_.insert(peer).second) peers_.emplace_back(std::move(peer), line);
}

std::string DanglingPeers::warning(const std::string& origin) const {
  constexpr size_t kListed = 8;
  std::string out = origin + ": loaded a partial fabric: " + std::to_string(ports_) +
                    (ports_ == 1 ? " port links" : " ports link") + " to " + std::to_string(peers_.size()) +
                    (peers_.size() == 1 ? " node" : " nodes") + " the file has no record of, kept as unreached peers: ";
  for (size_t i = 0; i < peers_.size() && i < kListed; ++i)
    out += (i ? ", " : "") + peers_[i].first + " (line " + std::to_string(peers_[i].second) + ")";
  if (peers_.size() > kListed) out += " and " + std::to_string(peers_.size() - kListed) + " more";
  return out;
}

void TextLoader::fail(int line, const std::string& reason) const { throw InputError(origin_, line, reason); }

Fabric TextLoader::finish() {
  if (std::string w = noise_.warning(origin_); !w.empty()) warn(options_, w);
  if (!dangling_.empty()) warn(options_, dangling_.warning(origin_));
  return std::move(fabric_);
}

std::string bad_guid_reason(std::string_view what, std::string_view token) {
  std::string r = what.empty() ? std::string() : std::string(what) + " ";
  r += quote(token) + " is not a 64-bit hexadecimal GUID";
  bool redacted = token.find('<') != std::string_view::npos || token.find("redact") != std::string_view::npos ||
                  token.find("xxxx") != std::string_view::npos || token.find("XXXX") != std::string_view::npos;
  if (redacted) r += " (it looks redacted; ibburn needs the real GUIDs)";
  return r;
}

std::optional<Width> parse_compat_width(std::string_view t) {
  if (t == "??") return Width::Unknown;
  if (t.size() < 2 || (t.back() != 'x' && t.back() != 'X')) return std::nullopt;
  auto n = parse_uint(t.substr(0, t.size() - 1), 12);
  if (!n) return std::nullopt;
  switch (*n) {
    case 1: return Width::X1;
    case 2: return Width::X2;
    case 4: return Width::X4;
    case 8: return Width::X8;
    case 12: return Width::X12;
    default: return std::nullopt;
  }
}

std::optional<Speed> parse_compat_speed(std::string_view t) {
  static constexpr std::pair<std::string_view, Speed> kNames[] = {
      {"???", Speed::Unknown}, {"SDR", Speed::SDR}, {"DDR", Speed::DDR}, {"QDR", Speed::QDR}, {"FDR10", Speed::FDR10},
      {"FDR", Speed::FDR},     {"EDR", Speed::EDR}, {"HDR", Speed::HDR}, {"NDR", Speed::NDR}, {"XDR", Speed::XDR}};
  for (auto& [name, speed] : kNames)
    if (t == name) return speed;
  return std::nullopt;
}

std::optional<LinkRate> parse_compat_rate(std::string_view t) {
  size_t split;
  if (t.substr(0, 2) == "??") {
    split = 2;
  } else {
    split = t.find_first_of("xX");
    if (split == std::string_view::npos) return std::nullopt;
    ++split;
  }
  auto w = parse_compat_width(t.substr(0, split));
  auto s = parse_compat_speed(t.substr(split));
  if (!w || !s) return std::nullopt;
  return LinkRate{*w, *s};
}

}  // namespace ibburn::topo::scan
