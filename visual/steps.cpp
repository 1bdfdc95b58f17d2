// Stepping arithmetic (see steps.h).
#include "visual/steps.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace ws::visual {

std::vector<uint32_t> WarpSteps(const sim::Trace& trace, uint32_t block, uint32_t warp) {
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < trace.instructions.size(); ++i) {
    const auto& ins = trace.instructions[i];
    if (ins.block == block && ins.warp == warp) out.push_back(i);
  }
  return out;
}

int IterationStep(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step, int dir) {
  if (step < 0 || step >= int(steps.size())) return step;
  const uint32_t site = trace.instructions[steps[step]].site;
  for (int s = step + (dir > 0 ? 1 : -1); s >= 0 && s < int(steps.size()); s += dir > 0 ? 1 : -1)
    if (trace.instructions[steps[s]].site == site) return s;
  return step;
}

int StepAtIteration(const sim::Trace& trace, const std::vector<uint32_t>& steps, uint32_t epoch, int offset) {
  if (steps.empty()) return 0;
  int first = -1, last = -1, nearest = 0;
  for (int s = 0; s < int(steps.size()); ++s) {
    const uint32_t e = trace.instructions[steps[s]].epoch;
    if (e == epoch) {
      if (first < 0) first = s;
      last = s;
    }
    if (e <= epoch) nearest = s;
  }
  if (first < 0) return nearest;
  return std::clamp(first + offset, first, last);
}

int OffsetInIteration(const sim::Trace& trace, const std::vector<uint32_t>& steps, int step) {
  if (step < 0 || step >= int(steps.size())) return 0;
  const uint32_t e = trace.instructions[steps[step]].epoch;
  int s = step;
  while (s > 0 && trace.instructions[steps[s - 1]].epoch == e) --s;
  return step - s;
}

const char* ToString(Follow f) {
  switch (f) {
    case Follow::Lockstep: return "in lockstep";
    case Follow::Role: return "by source role";
    case Follow::Alone: return "alone";
  }
  return "?";
}

namespace {
const std::string& ArrayName(const sim::Trace& t, const sim::WarpInstruction& ins) {
  static const std::string none;
  return ins.array >= 0 && size_t(ins.array) < t.arrays.size() ? t.arrays[ins.array].name : none;
}
}  // namespace

bool SameRole(const sim::Trace& a, const sim::WarpInstruction& x, const sim::Trace& b, const sim::WarpInstruction& y) {
  return x.op == y.op && x.space == y.space && ArrayName(a, x) == ArrayName(b, y);
}

std::string RoleName(const sim::Trace& t, const sim::WarpInstruction& ins) {
  return std::string(sim::ToString(ins.op)) + "." + sim::ToString(ins.space) + " " + ArrayName(t, ins);
}

bool RolesMatch(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
                const std::vector<uint32_t>& b_steps) {
  if (a_steps.empty() || b_steps.empty()) return false;
  // The roles b's warp has (as SameRole compares them), once: a warp may have thousands of steps.
  std::set<std::tuple<sim::Op, sim::Space, std::string>> roles;
  for (const uint32_t i : b_steps) roles.insert({b.instructions[i].op, b.instructions[i].space, ArrayName(b, b.instructions[i])});
  for (const uint32_t i : a_steps)
    if (!roles.count({a.instructions[i].op, a.instructions[i].space, ArrayName(a, a.instructions[i])})) return false;
  return true;
}

bool SameSteps(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
               const std::vector<uint32_t>& b_steps) {
  if (a_steps.empty() || a_steps.size() != b_steps.size()) return false;
  for (size_t k = 0; k < a_steps.size(); ++k) {
    const sim::WarpInstruction &x = a.instructions[a_steps[k]], &y = b.instructions[b_steps[k]];
    if (x.op != y.op || x.space != y.space) return false;
  }
  return true;
}

FollowChoice DefaultFollow(const sim::Trace& a, const std::vector<uint32_t>& a_steps, const sim::Trace& b,
                           const std::vector<uint32_t>& b_steps) {
  if (SameSteps(a, a_steps, b, b_steps)) return {Follow::Lockstep, FollowWhy::SameSteps};
  if (RolesMatch(a, a_steps, b, b_steps)) return {Follow::Role, FollowWhy::RolesMatch};
  return {Follow::Lockstep, FollowWhy::RolesDiffer};
}

std::string FollowWords(Follow f, FollowWhy why) {
  switch (why) {
    case FollowWhy::RolesMatch: return "by role";
    case FollowWhy::SameSteps: return "in lockstep: same steps";
    case FollowWhy::RolesDiffer: return "in lockstep: roles differ";
    case FollowWhy::Chosen: break;
  }
  return std::string(ToString(f)) + " (L)";
}

std::string FollowSentence(const std::string& follower, const std::string& leader, Follow f, FollowWhy why) {
  return follower + " follows " + leader + " " + FollowWords(f, why);
}

std::string StepLabel(int step, int steps) {
  if (steps <= 0) return "no steps";
  return "step " + std::to_string(step) + " (0\xe2\x80\x93" + std::to_string(steps - 1) + ")";
}

int RoleStep(const sim::Trace& a, const std::vector<uint32_t>& a_steps, int a_step, const sim::Trace& b,
             const std::vector<uint32_t>& b_steps, int b_current) {
  if (a_step < 0 || a_step >= int(a_steps.size())) return b_current;
  const sim::WarpInstruction& x = a.instructions[a_steps[a_step]];
  int k = 0;  // how many earlier steps of a have this role
  for (int s = 0; s < a_step; ++s)
    if (SameRole(a, a.instructions[a_steps[s]], a, x)) ++k;
  int last = -1;
  for (int s = 0; s < int(b_steps.size()); ++s) {
    if (!SameRole(a, x, b, b.instructions[b_steps[s]])) continue;
    if (k-- == 0) return s;
    last = s;
  }
  return last >= 0 ? last : b_current;
}

}  // namespace ws::visual
