// The runner's request and reply as bytes (toolchain/runner_protocol.h). Each is written once, in
// RequestFields and ReplyFields, which both directions run (toolchain/wire_fields.h).
#include "toolchain/runner_protocol.h"

#include <cstdint>

#include "toolchain/trace_codec.h"
#include "toolchain/wire.h"
#include "toolchain/wire_fields.h"

namespace ws::toolchain {

namespace {
constexpr uint64_t kRequestMagic = 0x5751525331ull;  // "WSRQ1"
constexpr uint64_t kReplyMagic = 0x5752505331ull;    // "WSRP1"

void Magic(wire::Reader& r, uint64_t magic) {
  if (r.U64() != magic) r.Fail("does not start as one (another warpscope version?)");
}

// Every field of a request, in the order of the bytes; Q is `const RunnerRequest` or `RunnerRequest`.
template <class Io, class Q>
void RequestFields(Io& io, Q& q) {
  io.Num(q.op, 1, 2, "request");
  io.Text(q.library);
  io.Text(q.file);
  io.Text(q.text);
  io.Text(q.kernel);
  io.Signed(q.run.n);
  io.Dim(q.run.block, "block");
  io.Num(q.run.seed);
  auto& o = q.options;
  io.Num(o.selection.kind, 0, uint64_t(sim::Selection::Kind::All), "selection");
  io.U32(o.selection.block, "selected block");
  io.U32(o.selection.warp, "selected warp");
  io.Num(o.max_trace_instructions);
  io.Num(o.max_findings);
  io.Num(o.progress_budget);
  io.Real(o.watchdog_seconds);
  io.Num(o.max_threads);
  io.Flag(o.caches);
  io.Text(q.device);
  io.U32(o.registers_per_thread, "registers per thread");
  io.U32(o.threads, "threads");
}

// Every field of a reply to `op`, in the order of the bytes; P is `const RunnerReply` or `RunnerReply`.
// A reply with an error stops after it.
template <class Io, class P>
void ReplyFields(Io& io, RunnerRequest::Op op, P& p) {
  io.Text(p.error);
  io.Flag(p.stopped);
  if (!p.error.empty()) return;
  if (op == RunnerRequest::Op::Describe) {
    io.Size(p.kernels, 9, "kernels");
    for (auto& k : p.kernels) {
      for (auto* s : {&k.name, &k.title, &k.watch, &k.size_meaning, &k.family_title}) io.Text(*s);
      for (auto* v : {&k.teaching_n, &k.timing_n, &k.max_n, &k.line}) io.Int(*v, "a size");
    }
    return;
  }
  auto& o = p.outcome;
  io.Flag(o.check.passed);
  io.Real(o.check.max_abs_error);
  io.Real(o.check.max_rel_error);
  io.Num(o.check.mismatches);
  io.Text(o.check.detail);
  io.Size(o.printed, 2, "printed texts");
  for (auto& t : o.printed) {
    io.Num(t.launch, 0, INT32_MAX, "launch");
    io.Text(t.text);
  }
  io.Flag(o.printed_cut);
  if constexpr (Io::kIn)
    o.trace = DecodeTrace(io.r);
  else
    EncodeTrace(o.trace, io.w);
}
}  // namespace

std::string EncodeRequest(const RunnerRequest& q) {
  wire::Writer w;
  w.U64(kRequestMagic);
  wire::Out out{w};
  RequestFields(out, q);
  return w.Take();
}

RunnerRequest DecodeRequest(const std::string& bytes) {
  wire::Reader r(bytes);
  Magic(r, kRequestMagic);
  RunnerRequest q;
  wire::In in{r};
  RequestFields(in, q);
  return q;
}

std::string EncodeReply(RunnerRequest::Op op, const RunnerReply& p) {
  wire::Writer w;
  w.U64(kReplyMagic);
  wire::Out out{w};
  ReplyFields(out, op, p);
  return w.Take();
}

RunnerReply DecodeReply(RunnerRequest::Op op, const std::string& bytes) {
  wire::Reader r(bytes);
  Magic(r, kReplyMagic);
  RunnerReply p;
  wire::In in{r};
  ReplyFields(in, op, p);
  if (p.error.empty() && !r.AtEnd()) r.Fail("goes on after its end");
  return p;
}

}  // namespace ws::toolchain
