// The runner's request and reply as bytes (toolchain/runner_protocol.h).
#include "toolchain/runner_protocol.h"

#include <cmath>

#include "toolchain/trace_codec.h"
#include "toolchain/wire.h"

namespace ws::toolchain {

namespace {
constexpr uint64_t kRequestMagic = 0x5751525331ull;  // "WSRQ1"
constexpr uint64_t kReplyMagic = 0x5752505331ull;    // "WSRP1"

void Magic(wire::Reader& r, uint64_t magic) {
  if (r.U64() != magic) r.Fail("does not start as one (another warpscope version?)");
}
}  // namespace

std::string EncodeRequest(const RunnerRequest& q) {
  wire::Writer w;
  w.U64(kRequestMagic);
  w.U64(uint64_t(q.op));
  w.Str(q.library);
  w.Str(q.file);
  w.Str(q.text);
  w.Str(q.kernel);
  w.I64(q.run.n);
  w.U64(q.run.block.x);
  w.U64(q.run.block.y);
  w.U64(q.run.block.z);
  w.U64(q.run.seed);
  const auto& o = q.options;
  w.U64(uint64_t(o.selection.kind));
  w.U64(o.selection.block);
  w.U64(o.selection.warp);
  w.U64(o.max_trace_instructions);
  w.U64(o.max_findings);
  w.U64(o.step_budget);
  w.F64(o.watchdog_seconds);
  w.U64(o.max_threads);
  w.Bool(o.caches);
  w.Str(q.device);
  w.U64(o.registers_per_thread);
  return w.Take();
}

RunnerRequest DecodeRequest(const std::string& bytes) {
  wire::Reader r(bytes);
  Magic(r, kRequestMagic);
  RunnerRequest q;
  q.op = RunnerRequest::Op(r.U64(1, 2, "request"));
  q.library = r.Str();
  q.file = r.Str();
  q.text = r.Str();
  q.kernel = r.Str();
  q.run.n = int(r.I64());
  q.run.block.x = r.U32("block");
  q.run.block.y = r.U32("block");
  q.run.block.z = r.U32("block");
  q.run.seed = r.U64();
  auto& o = q.options;
  o.selection.kind = sim::Selection::Kind(r.U64(0, uint64_t(sim::Selection::Kind::All), "selection"));
  o.selection.block = r.U32("selected block");
  o.selection.warp = r.U32("selected warp");
  o.max_trace_instructions = r.U64();
  o.max_findings = r.U64();
  o.step_budget = r.U64();
  o.watchdog_seconds = r.F64();
  o.max_threads = r.U64();
  o.caches = r.Bool();
  q.device = r.Str();
  o.registers_per_thread = r.U32("registers per thread");
  return q;
}

std::string EncodeReply(RunnerRequest::Op op, const RunnerReply& p) {
  wire::Writer w;
  w.U64(kReplyMagic);
  w.Str(p.error);
  w.Bool(p.stopped);
  if (!p.error.empty()) return w.Take();
  if (op == RunnerRequest::Op::Describe) {
    w.U64(p.kernels.size());
    for (const auto& k : p.kernels) {
      for (const std::string* s : {&k.name, &k.title, &k.watch, &k.size_meaning, &k.family_title}) w.Str(*s);
      for (int v : {k.teaching_n, k.timing_n, k.max_n, k.line}) w.I64(v);
    }
    return w.Take();
  }
  const auto& o = p.outcome;
  w.Bool(o.check.passed);
  w.F64(o.check.max_abs_error);
  w.F64(o.check.max_rel_error);
  w.U64(o.check.mismatches);
  w.Str(o.check.detail);
  w.U64(o.printed.size());
  for (const auto& t : o.printed) {
    w.U64(uint64_t(t.launch));
    w.Str(t.text);
  }
  w.Bool(o.printed_cut);
  EncodeTrace(o.trace, w);
  return w.Take();
}

RunnerReply DecodeReply(RunnerRequest::Op op, const std::string& bytes) {
  wire::Reader r(bytes);
  Magic(r, kReplyMagic);
  RunnerReply p;
  p.error = r.Str();
  p.stopped = r.Bool();
  if (!p.error.empty()) return p;
  if (op == RunnerRequest::Op::Describe) {
    p.kernels.resize(r.Count(9, "kernels"));
    for (auto& k : p.kernels) {
      for (std::string* s : {&k.name, &k.title, &k.watch, &k.size_meaning, &k.family_title}) *s = r.Str();
      for (int* v : {&k.teaching_n, &k.timing_n, &k.max_n, &k.line}) {
        const int64_t x = r.I64();
        if (x < INT32_MIN || x > INT32_MAX) r.Fail("holds a size outside the range of an int");
        *v = int(x);
      }
    }
  } else {
    auto& o = p.outcome;
    o.check.passed = r.Bool();
    o.check.max_abs_error = r.F64();
    o.check.max_rel_error = r.F64();
    o.check.mismatches = r.U64();
    o.check.detail = r.Str();
    o.printed.resize(r.Count(2, "printed texts"));
    for (auto& t : o.printed) {
      t.launch = int(r.U64(0, INT32_MAX, "launch"));
      t.text = r.Str();
    }
    o.printed_cut = r.Bool();
    o.trace = DecodeTrace(r);
  }
  if (!r.AtEnd()) r.Fail("goes on after its end");
  return p;
}

}  // namespace ws::toolchain
