// Recorded figures in a lesson's captions: {ms:FAMILY/VARIANT}, {speedup:FASTER:SLOWER} and
// {device} are filled from the timings recorded on a device (assets/recorded, kernels/recorded.h),
// so that a caption follows the recordings when they are made again.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kernels/recorded.h"

namespace ws::app {

// The placeholders a caption may hold, for messages and the README.
inline constexpr const char* kCaptionPlaceholders = "{ms:FAMILY/VARIANT}, {speedup:FASTER:SLOWER}, {device}";

// True when `caption` holds a '{', i.e. asks for a recorded figure.
bool HasPlaceholder(const std::string& caption);

// The caption with each placeholder replaced: {ms:X} by X's median time ("0.147 ms"),
// {speedup:X:Y} by Y's time over X's ("5.2×" as the timings panel writes it), {device} by the
// name of the device that measured them. All figures of one caption come from one report: the
// first of `recorded` (in file-name order) that holds every variant named. A caption that names a
// figure must name {device} as well. nullopt, with `why` naming the placeholder, when one is
// unknown, malformed or not recorded.
std::optional<std::string> FillCaption(const std::string& caption, const std::vector<kernels::RecordedFile>& recorded,
                                       std::string* why);

}  // namespace ws::app
