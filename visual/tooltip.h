// Tooltips that keep clear of the view their hover lights: the memory view's served-from mark
// lights its slot in the cache view, and its tooltip must not hide that slot (issue 24).
#pragma once
#include "visual/layout.h"

namespace ws::visual {

// The rectangle this frame's clear tooltips keep off (empty: none), set by the layout before the
// views draw: the cache view the lecturer asked for, while it is on screen.
void KeepTooltipsClearOf(const Rect& keep_clear);

// ImGui::BeginTooltip / EndTooltip for a hover that lights another view: the tooltip placed by
// PlaceTooltip (visual/layout.h), its lines wrapped to the room beside keep_clear.
void BeginClearTooltip(float scale);
void EndClearTooltip();

}  // namespace ws::visual
