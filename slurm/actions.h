#pragma once
// What ibburn does to Slurm after a run (pure): drain the hosts of drain.txt by their Slurm
// node names, and with --slurm-resume return to service the job's hosts that passed, only
// where the node's drain reason is ibburn's own. A node drained by anyone else is never
// touched: not resumed, and its reason not overwritten by a drain of ibburn's (which a later
// resume would then undo). Hosts with no Slurm node are reported, never guessed.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "slurm/nodes.h"

namespace ibburn::slurm {

// `--slurm-drain`, `--slurm-resume`, `--slurm-node-map FILE`.
struct SlurmOptions {
  bool drain = false;
  bool resume = false;
  std::string node_map;
  bool any() const { return drain || resume; }
};

// A host to drain, as drain.txt lists it.
struct Drain {
  std::string host;
  std::string reason;  // the worst finding about the host, one line
};

// Every reason ibburn sets starts so; resume acts only on these.
inline constexpr const char* kSlurmReasonPrefix = "ibburn: ";

enum class SlurmActionKind {
  Drain,       // scontrol update NodeName=N State=DRAIN Reason="ibburn: ..."
  Resume,      // scontrol update NodeName=N State=RESUME (its reason was ibburn's)
  Kept,        // drained by someone else: left as it is
  Unresolved,  // no Slurm node for the host: reported
};
const char* to_string(SlurmActionKind k);  // "drain", "resume", "kept", "unresolved"

struct SlurmAction {
  SlurmActionKind kind;
  std::string host;    // as ibburn names it
  std::string node;    // Slurm's NodeName (empty when unresolved)
  std::string reason;  // drain: the reason set; resume, kept: the node's reason; unresolved: why
};

// The reason Slurm shows in sinfo -R: "ibburn: " + the host's reason, one line of at most 200.
std::string slurm_reason(const Drain& host);

// Drains first (drain.txt's order), then resumes (by host). `passed` is empty unless the run
// completed: an unfinished run passes nobody.
std::vector<SlurmAction> plan_slurm_actions(const SlurmOptions& options, const std::vector<Drain>& drain,
                                            const std::vector<std::string>& passed, const std::vector<SlurmNode>& nodes,
                                            const std::map<std::string, std::string>& node_map);

}  // namespace ibburn::slurm
