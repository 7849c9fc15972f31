#pragma once
// Every libibverbs call ibburn makes goes through this table, so tests can substitute a
// software HCA (tests/burn/verbs/soft_hca.h) while the transport code path stays identical.
// Several verbs (ibv_post_send, ibv_poll_cq, ibv_reg_mr with optional access flags,
// ibv_query_port) are static inline in verbs.h and dispatch through the context's ops;
// the system table wraps them in real functions.
#include <cstddef>
#include <cstdint>

#include <infiniband/verbs.h>

namespace ibburn::rdma {

struct VerbsApi {
  ibv_device** (*get_device_list)(int* num_devices);
  void (*free_device_list)(ibv_device** list);
  const char* (*get_device_name)(ibv_device* device);
  ibv_context* (*open_device)(ibv_device* device);
  int (*close_device)(ibv_context* context);
  int (*query_device)(ibv_context* context, ibv_device_attr* attr);
  int (*query_port)(ibv_context* context, uint8_t port, ibv_port_attr* attr);
  // A GID with its type (IBVERBS_1.11, inline in verbs.h): 0, ENODATA for an empty entry, or errno.
  int (*query_gid_ex)(ibv_context* context, uint32_t port, uint32_t index, ibv_gid_entry* entry, uint32_t flags);
  int (*query_pkey)(ibv_context* context, uint8_t port, int index, __be16* pkey);

  ibv_pd* (*alloc_pd)(ibv_context* context);
  int (*dealloc_pd)(ibv_pd* pd);
  ibv_mr* (*reg_mr)(ibv_pd* pd, void* addr, size_t length, int access);
  ibv_mr* (*reg_dmabuf_mr)(ibv_pd* pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access);
  int (*dereg_mr)(ibv_mr* mr);

  ibv_comp_channel* (*create_comp_channel)(ibv_context* context);
  int (*destroy_comp_channel)(ibv_comp_channel* channel);
  ibv_cq* (*create_cq)(ibv_context* context, int cqe, void* cq_context, ibv_comp_channel* channel, int comp_vector);
  int (*destroy_cq)(ibv_cq* cq);
  int (*req_notify_cq)(ibv_cq* cq, int solicited_only);
  int (*get_cq_event)(ibv_comp_channel* channel, ibv_cq** cq, void** cq_context);
  void (*ack_cq_events)(ibv_cq* cq, unsigned int nevents);
  int (*poll_cq)(ibv_cq* cq, int num_entries, ibv_wc* wc);

  ibv_qp* (*create_qp)(ibv_pd* pd, ibv_qp_init_attr* attr);
  int (*modify_qp)(ibv_qp* qp, ibv_qp_attr* attr, int attr_mask);
  int (*destroy_qp)(ibv_qp* qp);
  int (*post_send)(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad_wr);
  int (*post_recv)(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad_wr);

  // Async events (port up/down, CQ overrun, fatal QP or device) on context->async_fd.
  int (*get_async_event)(ibv_context* context, ibv_async_event* event);
  void (*ack_async_event)(ibv_async_event* event);
};

// The table backed by the installed libibverbs.
const VerbsApi& system_verbs();

}  // namespace ibburn::rdma
