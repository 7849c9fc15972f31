#pragma once
// Small string_view scanning helpers shared by the fabric text parsers (ibnetdiscover plain
// and --ports forms, iblinkinfo), and the state they all carry. No regexes: dumps of 70k nodes must load in well under
// a second.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "common/text.h"
#include "topo/fabric.h"
#include "topo/fabric_io.h"
#include "topo/link_ledger.h"
#include "topo/link_rate.h"

namespace ibburn::topo::scan {

// Yields the lines of a text one by one with 1-based numbers; strips a trailing '\r'.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line);
  int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
using ibburn::trim;
std::string_view skip_space(std::string_view s);
// Removes and returns the next whitespace-delimited token (empty at the end).
std::string_view next_token(std::string_view& s);

// Unsigned decimal number no larger than `max`.
std::optional<uint32_t> parse_uint(std::string_view s, uint32_t max);
// Hexadecimal 64-bit value, with or without a 0x prefix, 1..16 digits.
std::optional<uint64_t> parse_hex64(std::string_view s);
// Reason text for a token that should have been a GUID: says when it looks redacted.
std::string bad_guid_reason(std::string_view what, std::string_view token);

// The rate column as ibnetdiscover prints it: "4xQDR", "2xNDR", "??SDR", "4x???", "?????";
// "??" / "???" mean unknown. nullopt when the token is not a rate at all.
std::optional<LinkRate> parse_compat_rate(std::string_view token);
// Width and speed as separate columns ("4x" "EDR", "??" "???"), as in the --ports report.
std::optional<Width> parse_compat_width(std::string_view token);
std::optional<Speed> parse_compat_speed(std::string_view token);

// Lower-case hex without 0x, zero-padded to 16 digits when pad16.
std::string hex(uint64_t v, bool pad16 = false);

// Quotes a piece of input for an error message, shortened when long.
std::string quote(std::string_view s);

// A line the diagnostic tools or their libraries print among the output, which captures of
// stdout and stderr together keep: `ibnetdiscover -s` progress (`DR path slid 0; dlid 0;
// 0,1 -> new Switch ...`), libibnetdisc and old libibmad messages (`src/query_smp.c:98;
// umad ...`), `ibwarn: [pid] fn: ...` (also ibdebug/ibpanic), `prog: iberror: ...`.
// `s` starts at the first non-space character.
bool is_tool_noise(std::string_view s);

// `...` (any run of three or more dots): an author's mark that output was left out.
bool is_elision(std::string_view s);

// The first line that is not blank, a `#` comment, tool noise or an elision mark (empty
// when none).
std::string_view first_significant_line(std::string_view text);

// Tool noise met while reading a file, reported once.
class NoiseLines {
 public:
  void add(int line, std::string_view text);
  // "skipped N lines of diagnostic tool messages (the first, line L: '...')"; empty when none.
  std::string warning(const std::string& origin) const;

 private:
  size_t count_ = 0;
  int first_line_ = 0;
  std::string first_;
};

// Nodes that port lines link to but the file has no record of, kept out of a partial load.
class DanglingPeers {
 public:
  // `peer` names the missing node as the file does; `line` is the first port line naming it.
  void add(std::string peer, int line);
  bool empty() const { return ports_ == 0; }
  // "loaded a partial fabric: N ports link to M nodes the file has no record of: ...".
  std::string warning(const std::string& origin) const;

 private:
  size_t ports_ = 0;
  std::vector<std::pair<std::string, int>> peers_;  // distinct, in order of first mention
  std::unordered_set<std::string> seen_;
};

// What every fabric text loader carries: its input and origin, the fabric it builds, the
// line that made each link, and what it warns about once done.
class TextLoader {
 protected:
  TextLoader(std::string_view text, const std::string& origin, const LoadOptions& options, LinkLedger::PortNamer namer)
      : text_(text), origin_(origin), options_(options), ledger_(origin, std::move(namer)) {}
  [[noreturn]] void fail(int line, const std::string& reason) const;
  // Warns about skipped noise and dangling peers, then hands the fabric over.
  Fabric finish();

  std::string_view text_;
  const std::string& origin_;
  const LoadOptions& options_;
  Fabric fabric_;
  LinkLedger ledger_;
  NoiseLines noise_;
  DanglingPeers dangling_;
  int line_ = 0;
};

}  // namespace ibburn::topo::scan
