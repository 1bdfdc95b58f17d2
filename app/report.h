// Turning a simulated launch into text, JSON and CSV for the CLI.
#pragma once
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "app/compiled_lines.h"
#include "kernels/catalog.h"

namespace ws::app {

// `compiled`, where given, adds what nvcc made of each line (its notes, the kernel's resource
// usage) and qualifies the check where the GPU's result can differ; with `as_compiled` the
// counters are those of the compiled code (sim::AsCompiled), said so in the output.
nlohmann::json StatsJson(const kernels::VariantRef& v, const kernels::RunRequest& r,
                         const kernels::SimOutcome& o, const CompilerView* compiled = nullptr,
                         bool as_compiled = false);
void PrintStats(std::ostream& out, const kernels::VariantRef& v, const kernels::RunRequest& r,
                const kernels::SimOutcome& o, const CompilerView* compiled = nullptr, bool as_compiled = false);
// The check as stats says it: "passed", "FAILED", or where a note says the compiled code's result
// can differ, "passed in the simulator; on the GPU the result can differ (line 24: ...)".
std::string CheckText(const kernels::SimOutcome& o, const CompilerView* compiled);

// Every finding, one line each: severity, kind, source line, block, thread, array, address and
// the message. Fields a finding does not have (a refused launch has no line) are left out.
void PrintFindings(std::ostream& out, const sim::Trace& t);
// A kernel file's printf output as a section of its own ("printf output ...", each launch's text
// indented under "launch N:"); nothing where nothing was printed. The JSON of stats and trace
// carries it as a "printf" array instead; CSV leaves it to stderr.
void PrintPrinted(std::ostream& out, const kernels::SimOutcome& o);

// `compiled`, where given, adds each instruction's line's notes ("compiled" in JSON; in text once
// per line, under the line's first instruction).
nlohmann::json TraceJson(const kernels::SimOutcome& o, size_t steps, const CompilerView* compiled = nullptr);
void PrintTraceCsv(std::ostream& out, const kernels::SimOutcome& o, size_t steps);
void PrintTrace(std::ostream& out, const kernels::SimOutcome& o, size_t steps, const CompilerView* compiled = nullptr);

}  // namespace ws::app
