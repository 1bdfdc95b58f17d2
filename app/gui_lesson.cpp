// A lesson in the window: going to a slide (its variants, size, mode and step), Page Down / Page Up
// between slides, and the slide's caption over the panes (see gui_app.h; the script is lesson.h).
#include "app/gui_app.h"

#include <imgui.h>

namespace ws::app {

void Gui::SetLesson(Lesson lesson) { lesson_ = std::move(lesson); }

void Gui::NextSlide(int dir) {
  if (!lesson_) return;
  const int to = slide_ + dir;
  if (to >= 0 && to < int(lesson_->slides.size())) GoToSlide(to);
}

void Gui::GoToSlide(int index) {
  const Slide& s = lesson_->slides[size_t(index)];
  slide_ = index;
  const auto a = kernels::FindVariant(s.variant);  // LoadLesson checked both names
  compare_on_ = !s.compare.empty();
  n_ = s.n;
  pb_.block = uint32_t(s.block);
  pb_.warp = uint32_t(s.warp);
  pb_.whole_block = s.whole_block;
  pb_.playing = false;
  // The slide's mode, or the rule's once both panes are simulated (DecideFollow).
  follow_why_ = s.follow ? visual::FollowWhy::Chosen : visual::FollowWhy::RolesDiffer;
  follow_key_ = {};
  if (s.follow) follow_ = *s.follow;
  focus_ = 0;
  if (present_ != s.present) {
    present_ = s.present;
    UpdateScale();
  }
  side_ = s.side;
  side_tab_set_ = false;
  chart_shown_ = s.side != "counters";
  // A pane simulates again only when what it shows changed: a clicker's next slide on the same
  // variants is at once on screen.
  const auto show = [this, &s](Pane& p, const kernels::VariantRef& v) {
    const int n = n_ ? n_ : v.TeachingN();
    const bool same = p.outcome && p.Id() == v.Id() && p.n == n && p.shape == s.shape && !p.outcome->trace.instructions.empty() &&
                      p.outcome->trace.instructions.front().block == pb_.block;
    p.variant = v;
    p.shape = s.shape;
    p.step = 0;
    if (same) ShowStep(p);
    else Request(p);
  };
  show(pane_[0], a);
  if (compare_on_) show(pane_[1], kernels::FindVariant(s.compare));
  slide_pending_ = true;
}

void Gui::ApplyPendingSlide() {
  if (!slide_pending_ || !Loaded()) return;
  slide_pending_ = false;
  const Slide& s = lesson_->slides[size_t(slide_)];
  Pane& a = pane_[0];
  Pane& b = pane_[1];
  std::string why;
  const auto at = ResolveSlide(s, a.outcome->trace, a.steps, Compare() ? &b.outcome->trace : nullptr,
                               Compare() ? &b.steps : nullptr, &why);
  if (!at) {
    message_ = lesson_->path + ": slide " + std::to_string(slide_ + 1) + ": " + why;
    return;
  }
  follow_ = at->follow;
  if (!s.follow) follow_why_ = at->why;
  a.step = at->a;
  ShowStep(a);
  if (Compare()) {
    b.step = at->b;
    ShowStep(b);
  }
}

// The slide's caption, in the lecturer's words, across the top: large enough for the hall.
void Gui::DrawCaption() {
  if (!lesson_ || slide_ < 0) return;
  const Slide& s = lesson_->slides[size_t(slide_)];
  const std::string where = std::to_string(slide_ + 1) + "/" + std::to_string(lesson_->slides.size());
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextUnformatted(where.c_str());
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s, slide %s. Page Down: the next slide; Page Up: the one before.", lesson_->path.c_str(), where.c_str());
  ImGui::SameLine();
  if (big_) ImGui::PushFont(big_);
  ImGui::TextWrapped("%s", s.caption.c_str());
  if (big_) ImGui::PopFont();
}

}  // namespace ws::app
