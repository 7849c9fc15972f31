#include "common/cpu_pin.h"

namespace ibburn {

ScopedCpuPin::ScopedCpuPin(int cpu) : thread_(pthread_self()) {
  if (pthread_getaffinity_np(thread_, sizeof previous_, &previous_) != 0 || CPU_COUNT(&previous_) < 2) return;
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &previous_)) cpu = sched_getcpu();
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &previous_)) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (pthread_setaffinity_np(thread_, sizeof one, &one) == 0) cpu_ = cpu;
}

ScopedCpuPin::~ScopedCpuPin() {
  if (cpu_ >= 0) pthread_setaffinity_np(thread_, sizeof previous_, &previous_);
}

}  // namespace ibburn
