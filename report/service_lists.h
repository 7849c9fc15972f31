#pragma once
// The two lists `ibburn run` leaves beside the page, read back for it (pure): drain.txt
// ("HOST<TAB>REASON" lines; "# ..." lines say why hosts were not drained) and cables.csv (by
// its header's names, so columns added later, such as the module's part and serial number,
// are read when present), and each list as the text a site pastes into its ticket.
#include <string>
#include <vector>

namespace ibburn::report {

struct DrainRow {
  std::string host, reason;
  std::string cost{};  // "<TAB>cost: ..." after the reason, when the run priced it
};

struct DrainList {
  std::vector<DrainRow> hosts;     // what `--slurm-drain` drains
  std::vector<std::string> notes;  // the "# ..." lines (the drain guard's), without the "# "
};

// Columns a_node, a_port, b_node, b_port, cable, action, evidence; optional cost (what the cable
// costs the site's jobs, docs/price.md), a_part, b_part (each end's module as
// run/health_evidence names it: "VENDOR PN SN SERIAL").
struct CableRow {
  std::string a_node, a_port, b_node, b_port, label, action, evidence, a_part, b_part;
  std::string cost{};
};

// The modules as the site orders them: one text when both ends are one part (a copper or
// active cable), else "A: ...; B: ..." for the ends known; "" for none.
std::string module_text(const CableRow& c);

DrainList parse_drain(const std::string& text);
// A header without a_node, a_port, b_node, b_port and action, or a row with fewer fields than
// the header, is an InputError naming origin and line.
std::vector<CableRow> parse_cables_csv(const std::string& text, const std::string& origin);

// One line a host: "HOST<TAB>REASON"; one line a cable: "LABEL: A[p] <-> B[q]: ACTION (PART SN): EVIDENCE".
std::string drain_as_text(const std::vector<DrainRow>& hosts);
std::string cables_as_text(const std::vector<CableRow>& cables);

}  // namespace ibburn::report
