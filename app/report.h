// Turning a simulated launch into text, JSON and CSV for the CLI.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "kernels/catalog.h"

namespace ws::app {

nlohmann::json StatsJson(const kernels::VariantRef& v, const kernels::RunRequest& r,
                         const kernels::SimOutcome& o);
void PrintStats(std::ostream& out, const kernels::VariantRef& v, const kernels::RunRequest& r,
                const kernels::SimOutcome& o);

// Every finding, one line each: severity, kind, source line, block, thread, array, address and
// the message. Fields a finding does not have (a refused launch has no line) are left out.
void PrintFindings(std::ostream& out, const sim::Trace& t);

nlohmann::json TraceJson(const kernels::SimOutcome& o, size_t steps);
void PrintTraceCsv(std::ostream& out, const kernels::SimOutcome& o, size_t steps);
void PrintTrace(std::ostream& out, const kernels::SimOutcome& o, size_t steps);

}  // namespace ws::app
