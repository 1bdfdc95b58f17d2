// Shared memory: placing and naming a block's arrays, and the hooks the dialect calls for a
// shared access (the lanes of a warp issue it together; sim/race_check.h checks it).
#include "sim/shared_memory.h"

#include <cctype>
#include <cstring>
#include <mutex>

#include "sim/engine_impl.h"
#include "sim/launch_limits.h"
#include "sim/race_check.h"

namespace ws::sim::detail {

void SharedLayout::SetDynamicBytes(uint64_t bytes) {
  dynamic_bytes_ = bytes;
  dynamic_data_.assign((bytes + 15) / 16, Bytes16{});
  dynamic_shadow_.assign(bytes, 0);
}

uint64_t SharedLayout::Place(uint64_t bytes, bool dynamic) {
  uint64_t base = (bytes_ + 15) & ~15ull;
  if (!dynamic) {
    bytes_ = base + bytes;
  } else if (dynamic_base_ == ~0ull) {
    dynamic_base_ = base;
    bytes_ = base + dynamic_bytes_;
  } else {
    base = dynamic_base_;
  }
  return base;
}

DynamicSharedArea SharedLayout::DynamicArea() {
  return {dynamic_data_.empty() ? nullptr : dynamic_data_.front().b, dynamic_shadow_.data(),
          dynamic_bytes_};
}

std::string SharedNameAt(const std::string& text, uint32_t line_no, uint32_t column) {
  size_t pos = 0;
  for (uint32_t l = 1; l < line_no; ++l) {
    pos = text.find('\n', pos);
    if (pos == std::string::npos) return {};
    ++pos;
  }
  const std::string line = text.substr(pos, text.find('\n', pos) - pos);
  int c = int(column) - 1;
  while (c >= 0 && c < int(line.size()) && line[c] == ']') {
    for (int depth = 0; c >= 0; --c) {
      if (line[c] == ']') ++depth;
      else if (line[c] == '[' && --depth == 0) break;
    }
    --c;
    while (c >= 0 && line[c] == ' ') --c;
  }
  const int end = c + 1;
  while (c >= 0 && (std::isalnum(static_cast<unsigned char>(line[c])) || line[c] == '_')) --c;
  return end > c + 1 ? line.substr(c + 1, end - c - 1) : std::string();
}

uint64_t Generation(ThreadCtx& t) { return t.engine->generation; }

namespace {
// Gives a shared array its place (`dynamic`: at the extern arrays' common address) and a name.
void Register(ThreadCtx& t, SharedSlot& slot, std::source_location loc, uint32_t elem_bytes,
              uint64_t count, const char* type, bool dynamic, void* data) {
  EngineImpl& e = *t.engine;
  EngineSection section(t);
  if (data) std::memset(data, 0, size_t(elem_bytes) * count);  // (dynamic bytes: zeroed at launch)
  if (e.worker) {
    // A worker's slot placed before (a launch restarted): its array as it was.
    if (auto it = e.slot_array.find(&slot); it != e.slot_array.end()) {
      slot.generation = e.generation;
      slot.array = it->second;
      slot.base = e.trace.arrays[size_t(it->second)].base;
      return;
    }
  }
  const uint64_t base = e.shared.Place(elem_bytes * count, dynamic);
  ArrayInfo a;
  a.id = int(e.trace.arrays.size());
  a.type = type;
  a.elem_bytes = elem_bytes;
  a.count = count;
  a.cols = count;
  a.space = Space::Shared;
  a.base = base;
  // Name it after the variable in the source: the column is the closing ']' of the subscript.
  a.name = "shared" + std::to_string(a.id);
  if (e.opt.source_text) {
    static std::mutex source_mutex;  // workers of a parallel launch share the caller's reader
    std::unique_lock<std::mutex> lock(source_mutex);
    std::string name = SharedNameAt(e.opt.source_text(loc.file_name()), loc.line(), loc.column());
    lock.unlock();
    if (!name.empty()) a.name = name;
  }
  e.trace.arrays.push_back(a);
  slot.generation = e.generation;
  slot.array = a.id;
  slot.base = base;
  if (e.worker) e.slot_array[&slot] = a.id;
  const std::string excess = StaticSharedExcess(e.Device(), e.shared.static_bytes());
  if (!excess.empty() && !e.abort) {
    e.abort = true;
    e.findings.Add(FindingKind::LaunchLimit, t, int(e.InternSite(loc)), excess, a.id, 0, 0, false,
                   FindingScope::Block);
  }
}
}  // namespace

void RegisterShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                    uint32_t elem_bytes, uint64_t count, const char* type, void* data) {
  Register(t, slot, loc, elem_bytes, count, type, false, data);
}
void RegisterDynamicShared(ThreadCtx& t, SharedSlot& slot, std::source_location loc,
                           uint32_t elem_bytes, const char* type) {
  Register(t, slot, loc, elem_bytes, t.engine->shared.dynamic_bytes() / elem_bytes, type, true, nullptr);
}
DynamicSharedArea DynamicShared(ThreadCtx& t) { return t.engine->shared.DynamicArea(); }

bool SharedAccess(ThreadCtx& t, const SharedSlot& slot, std::source_location loc,
                  uint64_t index, uint64_t count, uint32_t elem_bytes, uint32_t piece_bytes,
                  uint32_t pieces, Op op, uint64_t* shadow, bool is_volatile, AtomicAdd add) {
  EngineImpl& e = *t.engine;
  if (index >= count) {
    ReportOutOfBounds(t, loc, slot.array, int64_t(index));
    return false;
  }
  const uint64_t addr = slot.base + index * elem_bytes;
  for (uint32_t p = 0; p < pieces; ++p) {
    // Wait for the warp: lanes at the same shared access issue it together. The lane is
    // resumed only with an empty buffer, so the event has room.
    t.pend_key = NextKey(t, loc, OpCode(op, Space::Shared));
    t.pend_loc = loc;
    t.pause = Pause::Shared;
    e.Yield(t);
    t.size = t.head = 0;
    LaneEvent& ev = t.buf[t.size++];
    ev.key = t.pend_key;
    ev.addr = addr + p * piece_bytes;
    ev.loc = loc;
    ev.meta = LaneEvent::Meta(slot.array, piece_bytes, op, Space::Shared, is_volatile, add);
  }
  CheckShared(e, t, slot, loc, index, addr, op, shadow[index], is_volatile);
  return true;
}

}  // namespace ws::sim::detail
