// One pane's chrome and views: its title and "view…" menu, the cost badge, the loading bar, the
// lane strip, the GPU's note, the memory grid and the banks; a pane too short for them scrolls
// and brings the step's array into sight (see gui_app.h).
#include "app/gui_app.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "visual/source_excerpt.h"
#include "visual/text_fit.h"

namespace ws::app {

// The step reads or writes a shared array of more than 2 rows of cells (transpose's 32x32 tile).
bool Gui::StepTouchesTile(const Pane& p) {
  const sim::WarpInstruction* focus = p.shown_step.Focus();
  if (!focus || focus->space != sim::Space::Shared || focus->array < 0 || size_t(focus->array) >= p.outcome->trace.arrays.size())
    return false;
  const auto& a = p.outcome->trace.arrays[size_t(focus->array)];
  return visual::MapCells(a.rows, a.cols, a.count, a.elem_bytes).shape.rows > 2;
}

// Presenter mode has no source view: the room the picture leaves under it (in the pane, or in
// the arrays' column beside the banks) shows the step's line and those around it.
void Gui::DrawExcerpt(const Pane& p) {
  visual::DrawSourceExcerpt(p.shown_step, SourceText(p), ImGui::GetContentRegionAvail().y - ImGui::GetStyle().WindowPadding.y * 0.5f,
                            mono_, &placed_);
}

void Gui::DrawPane(Pane& p, float width, float height) {
  ImGui::PushID(p.name.c_str());
  const bool focused = &p == &Focused();
  ImGui::PushStyleColor(ImGuiCol_Border, focused && Compare() ? ImGui::ColorConvertU32ToFloat4(visual::Pack(visual::kHighlight)) : ImGui::GetStyle().Colors[ImGuiCol_Border]);
  // The views fill the pane; a pane too short for its badge, lanes and one row of cells scrolls
  // rather than hides them (from the frame after they ran past its bottom edge, until the
  // simulation or the pane's size changes: see Pane::scrolls).
  const bool hall = present_ || Tight() || AtSharedSteps();  // the step decides the picture
  const Pane::ScrollKey scroll_key{p.outcome.get(), width, height, scale_, hall ? p.step : -1};
  if (!(scroll_key == p.scroll_key)) p.scroll_key = scroll_key, p.scrolls = false, p.overflowed_before = false;
  // In the hall, a step on a shared tile of many rows puts the banks beside the arrays (below):
  // both take the pane's height under the lanes and scroll themselves, so the pane never does.
  // Decided from the step, not from an earlier frame: an overflow seen in any frame of this step
  // left the pane scrolling, its scrollbar narrowed the plan that A and B share, and both tiles
  // were drawn at 6 px in place of 5, padded's 33 rows cut at 32 (1920x1080, presenter mode).
  const bool tile_beside = hall && p.outcome && StepTouchesTile(p);
  const bool scrolls = p.scrolls && !tile_beside;
  ImGui::BeginChild("pane", ImVec2(width, height), true,
                    scrolls ? ImGuiWindowFlags_AlwaysVerticalScrollbar : ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImGui::PopStyleColor();
  const kernels::VariantInfo& info = *p.variant.variant;
  // A short pane (a 720-line projector at a large scale) keeps its height for the picture: the
  // title and the notes take one line each, the rest in their tooltips.
  const bool short_pane = height < 18 * ImGui::GetTextLineHeightWithSpacing();
  // The family is in the toolbar; the title names the pane and the variant, and wraps. A short
  // window's title is the step's instruction instead, on one line (the variant is in the toolbar,
  // its title in the tooltip), so that the picture keeps the line.
  const bool tight = Tight();
  const std::string full_title = p.name + ": " + info.title;
  // The pane's view settings sit in a menu at the title's right (hidden in presenter mode).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float menu_w = present_ ? 0 : ImGui::CalcTextSize("view\xe2\x80\xa6").x + style.FramePadding.x * 2;
  const float title_x = ImGui::GetCursorPosX();
  const float right = ImGui::GetWindowContentRegionMax().x;
  const float title_w = right - title_x - (menu_w > 0 ? menu_w + style.ItemSpacing.x : 0);
  // The large font where the title fits on one line; otherwise the body font, wrapped.
  const visual::InstructionWording words = visual::InstructionWords(p.shown_step);
  const bool step_title = tight && !words.full.empty();
  ImFont* title_font = !step_title && big_ && big_->CalcTextSizeA(big_->FontSize, FLT_MAX, 0, full_title.c_str()).x <= title_w ? big_ : nullptr;
  const std::string title = step_title ? visual::FitText({p.name + ": " + words.full, p.name + ": " + words.brief}, title_w)
                            : title_font || !short_pane ? full_title
                                                        : visual::Ellipsize(full_title, title_w);
  if (title_font) ImGui::PushFont(title_font);
  ImGui::PushTextWrapPos(title_x + title_w);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopTextWrapPos();
  if (title_font) ImGui::PopFont();
  const bool title_hovered = ImGui::IsItemHovered();
  if (!present_) {
    const float after_title_y = ImGui::GetCursorPosY();
    ImGui::SameLine(std::max(right - menu_w, title_x));
    if (ImGui::SmallButton("view\xe2\x80\xa6##pane")) ImGui::OpenPopup("view##pane");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Zoom, trail and lane addresses for this pane");
    if (ImGui::BeginPopup("view##pane")) {
      ImGui::SetNextItemWidth(160 * scale_);
      ImGui::SliderFloat("zoom##view", &p.grid.zoom, 1.0f, 16.0f, "%.1fx");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Magnify the grids; scroll to move around.");
      ImGui::SetNextItemWidth(160 * scale_);
      ImGui::SliderInt("trail##view", &p.grid.trail_steps, 0, 8);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many earlier steps of this warp stay lit, fading.");
      ImGui::Checkbox("lane addresses##view", &p.lanes.show_addresses);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("List every lane's element and address under the lanes.");
      ImGui::EndPopup();
    }
    ImGui::SetCursorPosY(std::max(after_title_y, ImGui::GetCursorPosY()));
  }
  if (title_hovered) {
    if (p.outcome) {
      const auto& sh = p.outcome->trace.shape;
      ImGui::SetTooltip("%s\n%s at n=%d: grid %u\xc3\x97%u blocks of %u\xc3\x97%u threads; output %s.\n\n%s%s%s", full_title.c_str(),
                        p.Id().c_str(), p.n, sh.grid.x, sh.grid.y, sh.block.x, sh.block.y,
                        p.counting || p.counts_cancelled ? "not checked until the whole launch has run"
                        : p.outcome->check.passed        ? "matches the CPU reference"
                                                         : "DIFFERS from the CPU reference",
                        info.description.c_str(), info.on_hardware.empty() ? "" : "\n\nOn the GPU: ", info.on_hardware.c_str());
    } else {
      ImGui::SetTooltip("%s\n%s\n\n%s", full_title.c_str(), p.Id().c_str(), info.description.c_str());
    }
  }
  // A warning (a race and the like): one line atop the pane, the whole text in its tooltip.
  if (const sim::Finding* w = FirstFinding(p, false); w && p.fault.Draw(p.name, p.outcome->trace, *w, scale_, true))
    GoToFault(p, *w);
  // The cost of the current instruction comes first: it carries the lesson.
  // The headline keeps 3 % of the window's height (5 % in presenter mode) however narrow the pane.
  const float min_headline = std::ceil(ImGui::GetIO().DisplaySize.y * (present_ ? 0.05f : 0.03f));
  if (p.outcome && !p.steps.empty())
    p.lanes.DrawCost(p.shown_step, scale_, &placed_, badge_ ? badge_ : big_, min_headline, !step_title);
  if (p.loading) {
    // Large sizes take seconds: say how far the simulation is and let the lecturer stop it.
    const SimProgress pr = worker_.Progress(p.name == "A" ? 0 : 1);
    const float frac = pr.blocks_total ? float(double(pr.blocks_done) / double(pr.blocks_total)) : 0.0f;
    const std::string label = pr.blocks_total ? "simulating n=" + std::to_string(p.n) + ": block " +
                                                    std::to_string(pr.blocks_done) + " of " + std::to_string(pr.blocks_total)
                                              : "simulating n=" + std::to_string(p.n) + " ...";
    ImGui::ProgressBar(frac, ImVec2(std::max(ImGui::GetContentRegionAvail().x - 90 * scale_, 60 * scale_), 0), label.c_str());
    ImGui::SameLine();
    if (ImGui::Button("cancel##load")) worker_.Cancel(p.name == "A" ? 0 : 1);
  }
  if (!p.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(visual::Pack(visual::kErrorText)));
    ImGui::TextWrapped("%s", p.error.c_str());
    ImGui::PopStyleColor();
  }
  if (p.outcome) {
    const auto& t = p.outcome->trace;
    // The launch shape is in the title's tooltip; what must not be missed is said here.
    const bool checked = !p.counting && !p.counts_cancelled;  // the output is there to check
    const bool differs = checked && !p.outcome->check.passed;
    if (differs || t.truncated) {
      // A wrong result is an error; a trace cut short, a warning.
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(visual::Pack(differs ? visual::kErrorText : visual::kWarningText)));
      ImGui::TextWrapped("%s%s%s", differs ? "output DIFFERS from the CPU reference" : "",
                         differs && t.truncated ? "; " : "", t.truncated ? "trace truncated" : "");
      ImGui::PopStyleColor();
    }
    if (p.steps.empty()) ImGui::TextDisabled("warp %u of block %u issues no memory instruction", pb_.warp, pb_.block);
    // A short pane keeps room for the picture (a label and three rows of legible cells, and the
    // banks' header where the kernel uses shared memory): the lane strip loses its numbers and
    // the GPU's note goes to the title's tooltip.
    const float line_h = ImGui::GetTextLineHeightWithSpacing();
    const float picture_min = line_h + 3 * visual::LegibleCell(scale_) + (p.HasShared() ? 3 * line_h : 0.0f);
    const float lanes_h = ImGui::GetTextLineHeight() + 24.0f * scale_ + style.ItemSpacing.y;
    p.lanes.Draw(p.shown_step, scale_, &placed_, tight || ImGui::GetContentRegionAvail().y < lanes_h + picture_min);
    if (!info.on_hardware.empty() && !present_ && (!short_pane || ImGui::GetContentRegionAvail().y >= line_h + picture_min)) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);  // a footnote
      const std::string note = "On the GPU: " + info.on_hardware;
      // The note is a footnote to the picture: wrapped whole only in a pane tall enough that its
      // lines do not take the rows a warp's footprint needs (24 lines); else one line and a tooltip.
      if (short_pane || height < 24 * line_h) {
        ImGui::TextUnformatted(visual::Ellipsize(note, ImGui::GetContentRegionAvail().x).c_str());
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", note.c_str());
      } else {
        ImGui::TextWrapped("%s", note.c_str());
      }
      ImGui::PopStyleColor();
    }
    const float rest = ImGui::GetContentRegionAvail().y;
    const bool shared = p.HasShared();
    const sim::WarpInstruction* focus = p.shown_step.Focus();
    // The banks beside the arrays where the array the step touches needs the pane's height (a tile
    // of many rows: transpose's 32x32), or where the pane is too short for the array above the
    // banks: an array of a row or two (pairs' 32-float _b) is as wide as the pane above the banks,
    // which take what it leaves, wherever a 32-mark stack fits under it (so that A and B agree).
    bool tall_tile = true;
    uint64_t tile_rows = 0, tile_cols = 0;  // the shape of the array the step touches, in cells
    if (focus && focus->array >= 0 && size_t(focus->array) < p.outcome->trace.arrays.size()) {
      const auto& a = p.outcome->trace.arrays[size_t(focus->array)];
      const visual::GridShape s = visual::MapCells(a.rows, a.cols, a.count, a.elem_bytes).shape;
      tile_rows = s.rows, tile_cols = s.cols;
      const float cell = std::min(visual::LargestCell(scale_), ImGui::GetContentRegionAvail().x / float(s.cols));
      const float arrays_h = 2.0f * (line_h + 8.0f * scale_) + cell * float(s.rows);  // labels' line, its label, cells
      tall_tile = s.rows > 2 || arrays_h + visual::BanksView::NeededHeight(sim::kWarpSize, scale_) > rest;
    }
    p.grid.labels_beside = hall && !present_;
    p.grid.lit_sectors = p.Lit();
    if (hall && shared && focus && focus->space == sim::Space::Shared && tall_tile) {
      // The hall at a shared-memory step: the banks beside the arrays, so that the tile and the
      // tallest stack (32 marks for a 32-way conflict) both get the pane's height. The banks take
      // 42 % of the width (320 px at scale 1 at most), less, down to 4 px a bank, where that lets
      // the tile's cells reach kTileCell px across (the tile is the lesson), as far as the height
      // under its label line lets them grow. Half the spacing between the two: at 1920x1080 scale 1
      // the 32 columns of 16 px and the banks at 4 px a bank take 512 + 6 + 128 of the pane's 646.
      const float w = ImGui::GetContentRegionAvail().x;
      const float gap = 0.5f * style.ItemSpacing.x;
      // (A row or two of cells beside them, where the stack does not fit under it, keeps the 42 %.)
      const float banks_most = std::min(w * 0.42f, 32 * 10 * scale_);
      const float title_w = ImGui::CalcTextSize("Banks").x + style.ItemSpacing.x + ImGui::CalcTextSize("(?)").x;  // BanksView's title
      const float banks_least = std::min(std::max(32 * 4.0f, title_w), banks_most);
      const float tall_cell = (rest - visual::MemoryGridView::LabelLine(true)) / float(std::max<uint64_t>(tile_rows, 1));
      const float tile_w = float(tile_cols) * std::clamp(tall_cell, 0.0f, visual::kTileCell);
      const float banks_w = tile_rows > 2 ? std::clamp(w - gap - tile_w, banks_least, banks_most) : banks_most;
      // Presenter mode too puts the untouched arrays' names on the tile's label line here: the
      // tile's rows take the height.
      p.grid.labels_beside = p.grid.labels_beside || tile_rows > 2;
      // (Each scrolls where its least cells or marks run past the pane: a 720-line window at scale 2.)
      ImGui::BeginChild("arrays##pane", ImVec2(w - banks_w - gap, rest), false);
      p.grid.Draw(p.shown_step, rest, scale_, &placed_, Compare() ? &grid_plan_ : nullptr, true);
      if (present_) DrawExcerpt(p);
      ImGui::EndChild();
      ImGui::SameLine(0.0f, gap);
      ImGui::BeginChild("banks##pane", ImVec2(0, rest), false);
      p.banks.Draw(p.shown_step, rest, scale_, &placed_, true);
      ImGui::EndChild();
    } else {
      // The banks keep room for every mark of the step's tallest stack (32 for a 32-way conflict).
      // Presenter mode gives them what the arrays leave (no empty band); otherwise about a third.
      const float banks_least = shared ? visual::BanksView::NeededHeight(p.shown_step, scale_, hall) : 0.0f;
      const float banks_h =
          shared ? std::max(banks_least, hall ? 0.0f : std::clamp(rest * 0.36f, std::min(90.0f * scale_, rest * 0.45f), 260.0f * scale_))
                 : 0.0f;
      // (Presenter mode: the spacing between the two counted, so that they never run past the pane.)
      const float grid_room = rest - banks_h - (hall && shared ? style.ItemSpacing.y : 0.0f);
      const float grid_h = p.grid.Draw(p.shown_step, grid_room, scale_, &placed_, Compare() ? &grid_plan_ : nullptr, hall);
      if (shared)
        p.banks.Draw(p.shown_step, hall ? std::max(rest - grid_h - style.ItemSpacing.y, banks_h) : banks_h, scale_, &placed_, hall);
      if (present_) DrawExcerpt(p);
    }
  }
  // What is seen of the pane ends half a padding above its bottom edge.
  const float content_bottom = ImGui::GetCursorScreenPos().y - style.ItemSpacing.y + ImGui::GetScrollY();
  const float visible_bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight() - style.WindowPadding.y * 0.5f;
  p.overflowed = !tile_beside && content_bottom > visible_bottom + 1.0f;
  p.scrolls = p.scrolls || (p.overflowed && (!hall || p.overflowed_before));
  p.overflowed_before = p.overflowed;
  // A pane that scrolls (a 720-line projector at scale 2) brings the array the step touches into
  // sight, its label and first row of cells, in the first frames of each step (its scroll range
  // follows the content a frame late); then the user may scroll away from it.
  if (p.in_sight_step != p.step) p.in_sight_step = p.step, p.in_sight_frames = 0;
  if (p.overflowed && p.outcome && p.in_sight_frames < 8) {
    ++p.in_sight_frames;
    const sim::WarpInstruction* ins = p.shown_step.Focus();
    const visual::Placed* grid = nullptr;
    if (ins && ins->array >= 0)
      for (const auto& pl : placed_)
        if (pl.pane == p.name && pl.kind == "grid" && pl.name == p.outcome->trace.arrays[size_t(ins->array)].name) grid = &pl;
    if (grid) {
      const float top = ImGui::GetWindowPos().y + style.WindowPadding.y * 0.5f;
      const float below = grid->rect.y + std::min(grid->rect.h, grid->cell) - visible_bottom;
      const float above = top - (grid->rect.y - ImGui::GetTextLineHeightWithSpacing());
      // Down to its first row of cells, but not past its label; else up to its label.
      const float delta = below > 0.5f ? std::min(below, -above) : above > 0.5f ? -above : 0.0f;
      if (std::abs(delta) > 0.5f) ImGui::SetScrollY(std::max(ImGui::GetScrollY() + delta, 0.0f));
    }
  }
  ImGui::EndChild();
  p.rect = {ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectSize().x, ImGui::GetItemRectSize().y};
  if (ImGui::IsItemClicked() && Compare()) focus_ = p.name == "A" ? 0 : 1;
  ImGui::PopID();
}

}  // namespace ws::app
