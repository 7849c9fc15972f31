#pragma once
// Ctrl-C / SIGTERM handling: the handler only sets a flag; long loops poll it and stop
// at the next safe point so partial results are written before exit.
#include <atomic>

namespace ibburn {
void install_interrupt_handlers();  // SIGINT and SIGTERM
bool interrupted();
void request_interrupt(int sig);  // as if the signal arrived (tests, MPI abort paths)
}  // namespace ibburn
