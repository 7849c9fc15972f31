#pragma once
// Slurm's hostlist expressions, written (pure): `host[001-032]` for host001..host032, as
// slurm.conf and topology.conf read them, so a leaf's 32 nodes take one short word.
#include <string>
#include <vector>

namespace ibburn::slurm {

// The names as one hostlist: names that differ only in a numeric suffix of the same number
// of digits share brackets (`leaf[01-08,12]`, `host[7-9],host[10-12]`: Slurm keeps each
// number's width); other names stand as they are. Each name once, comma-separated: the
// plain names first, then the numbered ones by prefix and width.
std::string slurm_hostlist(const std::vector<std::string>& names);

}  // namespace ibburn::slurm
