#pragma once
// RAII owners for every verbs object, each remembering the VerbsApi table that made it so
// the same table destroys it. Creation failures throw EnvironmentError naming the call and
// errno, because a failed verbs call is nearly always the host's state (limits, drivers).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include "rdma/verbs_api.h"

namespace ibburn::rdma {

template <class T, auto Destroy>
class VerbsHandle {
 public:
  VerbsHandle() = default;
  VerbsHandle(const VerbsApi* api, T* object) : api_(api), object_(object) {}
  VerbsHandle(VerbsHandle&& other) noexcept : api_(other.api_), object_(std::exchange(other.object_, nullptr)) {}
  VerbsHandle& operator=(VerbsHandle&& other) noexcept {
    if (this != &other) {
      reset();
      api_ = other.api_;
      object_ = std::exchange(other.object_, nullptr);
    }
    return *this;
  }
  VerbsHandle(const VerbsHandle&) = delete;
  VerbsHandle& operator=(const VerbsHandle&) = delete;
  ~VerbsHandle() { reset(); }

  void reset() {
    if (object_ != nullptr) (api_->*Destroy)(object_);
    object_ = nullptr;
  }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  const VerbsApi& api() const { return *api_; }

 private:
  const VerbsApi* api_ = nullptr;
  T* object_ = nullptr;
};

using Context = VerbsHandle<ibv_context, &VerbsApi::close_device>;
using ProtectionDomain = VerbsHandle<ibv_pd, &VerbsApi::dealloc_pd>;
using MemoryRegion = VerbsHandle<ibv_mr, &VerbsApi::dereg_mr>;
using CompChannel = VerbsHandle<ibv_comp_channel, &VerbsApi::destroy_comp_channel>;
using CompletionQueue = VerbsHandle<ibv_cq, &VerbsApi::destroy_cq>;
using QueuePair = VerbsHandle<ibv_qp, &VerbsApi::destroy_qp>;

// The list of RDMA devices; the devices stay valid while the list lives.
class DeviceList {
 public:
  explicit DeviceList(const VerbsApi& api);
  ~DeviceList();
  DeviceList(const DeviceList&) = delete;
  DeviceList& operator=(const DeviceList&) = delete;

  std::span<ibv_device* const> devices() const { return {list_, static_cast<size_t>(count_)}; }
  // The device called `name`; throws EnvironmentError listing the devices present.
  ibv_device* find(const std::string& name) const;

 private:
  const VerbsApi* api_;
  ibv_device** list_ = nullptr;
  int count_ = 0;
};

Context open_context(const VerbsApi& api, ibv_device* device);
ProtectionDomain alloc_pd(const Context& context);
MemoryRegion reg_mr(const ProtectionDomain& pd, void* addr, size_t length, int access);
CompChannel create_comp_channel(const Context& context);
CompletionQueue create_cq(const Context& context, int depth, const CompChannel* channel);
QueuePair create_qp(const ProtectionDomain& pd, ibv_qp_init_attr& attr);

// "ibv_xxx failed: <strerror(errno)>" for a call that returned NULL or non-zero.
[[noreturn]] void throw_verbs_error(const std::string& call, int error_number);

// Pinned memory (MRs, CQ and QP rings) counts against RLIMIT_MEMLOCK unless the process has
// CAP_IPC_LOCK, and under mpirun/ssh/srun the limit is often 64 KiB or 8 MiB. For ENOMEM or
// EPERM under a finite limit: " (RLIMIT_MEMLOCK is 8192 KiB (ulimit -l); set memlock
// unlimited ...)"; empty otherwise. limit_bytes: nullopt = unlimited.
std::string memlock_hint(int error_number, std::optional<uint64_t> limit_bytes);
// This process's RLIMIT_MEMLOCK soft limit in bytes; nullopt when unlimited.
std::optional<uint64_t> memlock_limit();

}  // namespace ibburn::rdma
