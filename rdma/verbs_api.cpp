#include "rdma/verbs_api.h"

namespace ibburn::rdma {
namespace {

// Out-of-line bodies for the verbs that verbs.h defines as inline functions or macros.
int query_port_fn(ibv_context* c, uint8_t port, ibv_port_attr* a) { return ibv_query_port(c, port, a); }
ibv_mr* reg_mr_fn(ibv_pd* pd, void* addr, size_t length, int access) { return ibv_reg_mr(pd, addr, length, access); }
int query_gid_ex_fn(ibv_context* c, uint32_t port, uint32_t index, ibv_gid_entry* entry, uint32_t flags) {
  return ibv_query_gid_ex(c, port, index, entry, flags);
}
int req_notify_cq_fn(ibv_cq* cq, int solicited_only) { return ibv_req_notify_cq(cq, solicited_only); }
int poll_cq_fn(ibv_cq* cq, int n, ibv_wc* wc) { return ibv_poll_cq(cq, n, wc); }
int post_send_fn(ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) { return ibv_post_send(qp, wr, bad); }
int post_recv_fn(ibv_qp* qp, ibv_recv_wr* wr, ibv_recv_wr** bad) { return ibv_post_recv(qp, wr, bad); }
const char* device_name_fn(ibv_device* d) { return ibv_get_device_name(d); }
ibv_device** device_list_fn(int* n) { return ibv_get_device_list(n); }

}  // namespace

const VerbsApi& system_verbs() {
  static const VerbsApi api{
      .get_device_list = device_list_fn,
      .free_device_list = ibv_free_device_list,
      .get_device_name = device_name_fn,
      .open_device = ibv_open_device,
      .close_device = ibv_close_device,
      .query_device = ibv_query_device,
      .query_port = query_port_fn,
      .query_gid_ex = query_gid_ex_fn,
      .query_pkey = ibv_query_pkey,
      .alloc_pd = ibv_alloc_pd,
      .dealloc_pd = ibv_dealloc_pd,
      .reg_mr = reg_mr_fn,
      .reg_dmabuf_mr = ibv_reg_dmabuf_mr,
      .dereg_mr = ibv_dereg_mr,
      .create_comp_channel = ibv_create_comp_channel,
      .destroy_comp_channel = ibv_destroy_comp_channel,
      .create_cq = ibv_create_cq,
      .destroy_cq = ibv_destroy_cq,
      .req_notify_cq = req_notify_cq_fn,
      .get_cq_event = ibv_get_cq_event,
      .ack_cq_events = ibv_ack_cq_events,
      .poll_cq = poll_cq_fn,
      .create_qp = ibv_create_qp,
      .modify_qp = ibv_modify_qp,
      .destroy_qp = ibv_destroy_qp,
      .post_send = post_send_fn,
      .post_recv = post_recv_fn,
      .get_async_event = ibv_get_async_event,
      .ack_async_event = ibv_ack_async_event,
  };
  return api;
}

}  // namespace ibburn::rdma
