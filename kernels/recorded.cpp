// assets/recorded (see recorded.h): the one reader of its JSON files, timing reports and
// Nsight Compute figures alike, and the writer of a report.
#include "kernels/recorded.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "kernels/catalog.h"

namespace ws::kernels {

namespace {

// The one loader of assets/recorded: the file at `path` read as JSON and made a T by `parse`;
// nullopt with `why` set ("no WHAT at PATH", "malformed WHAT in PATH: ...") when the file is
// missing, is not JSON, or `parse` throws (a field missing or of the wrong type).
template <class T, class Parse>
std::optional<T> Load(const std::string& path, const char* what, std::string* why, Parse parse) {
  std::ifstream in(path);
  if (!in) {
    if (why) *why = std::string("no ") + what + " at " + path;
    return std::nullopt;
  }
  try {
    return parse(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    if (why) *why = std::string("malformed ") + what + " in " + path + ": " + e.what();
    return std::nullopt;
  }
}

// Every *.json directly in `dir`, by name, through `load` (path, why) -> optional; a file that
// does not load is its reason in `problems`. None when `dir` is not a folder.
template <class Loaded>
auto LoadFolder(const std::filesystem::path& dir, std::vector<std::string>* problems, Loaded load) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<typename decltype(load(std::string(), nullptr))::value_type> out;
  for (const auto& f : files) {
    std::string why;
    if (auto r = load(f.string(), &why)) out.push_back(std::move(*r));
    else if (problems) problems->push_back(why);
  }
  return out;
}

nlohmann::json ToJson(const BenchReport& r) {
  nlohmann::json j;
  j["device"] = r.device;
  j["driver"] = r.driver;
  j["date"] = r.date;
  j["copy_gbps"] = r.copy_gbps;
  j["sm_count"] = r.sm_count;
  j["clock_ghz"] = r.clock_ghz;
  j["fp32_lane_gops"] = r.fp32_lane_gops;
  j["l2_bytes"] = r.l2_bytes;
  j["warmup"] = r.warmup;
  j["runs"] = r.runs;
  j["l2_flushed"] = r.l2_flushed;
  if (!r.command.empty()) j["command"] = r.command;
  auto ts = nlohmann::json::array();
  for (const auto& t : r.timings) {
    nlohmann::json x;
    x["variant"] = t.variant;
    x["n"] = t.n;
    x["grid"] = {t.grid[0], t.grid[1], t.grid[2]};
    x["block"] = {t.block[0], t.block[1], t.block[2]};
    x["runs"] = t.runs;
    x["launches"] = t.launches;
    x["ms_median"] = t.ms_median;
    x["ms_min"] = t.ms_min;
    x["ms_max"] = t.ms_max;
    x["ms_runs"] = t.ms_runs;
    x["gbps"] = t.gbps;
    x["gops"] = t.gops;
    x["pct_of_peak"] = t.pct_of_peak;
    x["peak"] = t.peak;
    x["peak_meaning"] = t.peak_meaning;
    x["speedup"] = t.speedup;
    x["check"] = {{"passed", t.check.passed},
                  {"max_abs_error", t.check.max_abs_error},
                  {"max_rel_error", t.check.max_rel_error},
                  {"mismatches", t.check.mismatches},
                  {"detail", t.check.detail}};
    x["error"] = t.error;
    ts.push_back(x);
  }
  j["timings"] = ts;
  return j;
}

template <class T>
T Get(const nlohmann::json& j, const char* key, T fallback) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

}  // namespace

std::optional<BenchReport> LoadRecorded(const std::string& path, std::string* why) {
  return Load<BenchReport>(path, "recorded results", why, [](const nlohmann::json& j) {
    BenchReport r;
    r.recorded = true;
    r.device = j.at("device").get<std::string>();
    r.driver = Get<std::string>(j, "driver", "");
    r.date = Get<std::string>(j, "date", "");
    r.copy_gbps = Get<double>(j, "copy_gbps", 0);
    r.sm_count = Get<int>(j, "sm_count", 0);
    r.clock_ghz = Get<double>(j, "clock_ghz", 0);
    r.fp32_lane_gops = Get<double>(j, "fp32_lane_gops", 0);
    r.l2_bytes = Get<double>(j, "l2_bytes", 0);
    r.warmup = Get<int>(j, "warmup", 0);
    r.runs = Get<int>(j, "runs", 0);
    r.l2_flushed = Get<bool>(j, "l2_flushed", false);
    r.command = Get<std::string>(j, "command", "");
    for (const auto& x : j.at("timings")) {
      Timing t;
      t.variant = x.at("variant").get<std::string>();
      t.n = x.at("n").get<int>();
      for (int k = 0; k < 3; ++k) {
        t.grid[k] = x.at("grid").at(k).get<unsigned>();
        t.block[k] = x.at("block").at(k).get<unsigned>();
      }
      t.runs = Get<int>(x, "runs", 0);
      t.launches = Get<int>(x, "launches", 0);
      t.ms_median = Get<double>(x, "ms_median", 0);
      t.ms_min = Get<double>(x, "ms_min", 0);
      t.ms_max = Get<double>(x, "ms_max", 0);
      t.ms_runs = Get<std::vector<double>>(x, "ms_runs", {});
      t.gbps = Get<double>(x, "gbps", 0);
      t.gops = Get<double>(x, "gops", 0);
      t.pct_of_peak = Get<double>(x, "pct_of_peak", 0);
      t.peak = Get<double>(x, "peak", 0);
      t.peak_meaning = Get<std::string>(x, "peak_meaning", "");
      t.speedup = Get<double>(x, "speedup", 0);
      // The figures follow from the time and the family's work as defined now (a change to a
      // family's Work, or to which ceiling it is measured against, applies to old files too).
      try {
        const VariantRef v = FindVariant(t.variant);
        const bool copy_peak = t.peak > 0 && t.peak_meaning.rfind("device-to-device", 0) == 0;
        Derive(t, v, r, copy_peak ? t.peak : r.copy_gbps);
      } catch (const BadRequest&) {
        // A variant this build no longer has: keep the file's figures.
      }
      if (auto c = x.find("check"); c != x.end()) {
        t.check.passed = Get<bool>(*c, "passed", false);
        t.check.max_abs_error = Get<double>(*c, "max_abs_error", 0);
        t.check.max_rel_error = Get<double>(*c, "max_rel_error", 0);
        t.check.mismatches = Get<uint64_t>(*c, "mismatches", 0);
        t.check.detail = Get<std::string>(*c, "detail", "");
      }
      t.error = Get<std::string>(x, "error", "");
      r.timings.push_back(std::move(t));
    }
    return r;
  });
}

bool SaveReport(const BenchReport& r, const std::string& path, std::string* why) {
  std::ofstream out(path);
  if (out) out << ToJson(r).dump(1) << "\n";
  if (!out) {
    if (why) *why = "cannot write " + path;
    return false;
  }
  return true;
}

// ---- Nsight Compute figures ----

const RecordedNcu::Run* RecordedNcu::Find(const std::string& variant, int n) const {
  for (const auto& r : runs)
    if (r.variant == variant && r.n == n) return &r;
  return nullptr;
}

std::vector<int> RecordedNcu::Sizes(const std::string& family) const {
  std::vector<int> s;
  for (const auto& r : runs)
    if (r.variant.rfind(family + "/", 0) == 0) s.push_back(r.n);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

RecordedRun FindRecordedRun(const std::vector<RecordedNcu>& files, const std::string& variant, int n) {
  for (const auto& f : files)
    for (const auto& r : f.runs)
      if (r.variant == variant && (n == 0 || r.n == n)) return {&f, &r};
  return {};
}

const RecordedNcu* FindRecordedFamily(const std::vector<RecordedNcu>& files, const std::string& family) {
  for (const auto& f : files)
    if (!f.Sizes(family).empty()) return &f;
  return files.empty() ? nullptr : &files.front();
}

std::optional<RecordedNcu> LoadRecordedNcu(const std::string& path, std::string* why) {
  return Load<RecordedNcu>(path, "recorded ncu figures", why, [&](const nlohmann::json& j) {
    RecordedNcu r;
    r.path = path;
    r.device = j.at("device").get<std::string>();
    r.date = j.at("date").get<std::string>();
    r.command = j.value("command", "");
    for (const auto& jr : j.at("runs")) {
      RecordedNcu::Run run;
      run.variant = jr.at("variant").get<std::string>();
      run.n = jr.at("n").get<int>();
      for (const auto& [k, v] : jr.at("metrics").items())
        if (v.is_number()) run.metrics[k] = v.get<double>();
      r.runs.push_back(std::move(run));
    }
    return r;
  });
}

std::vector<RecordedFile> LoadRecordedResults(const std::filesystem::path& dir, std::vector<std::string>* problems) {
  return LoadFolder(dir, problems, [](const std::string& path, std::string* why) -> std::optional<RecordedFile> {
    if (auto r = LoadRecorded(path, why)) return RecordedFile{path, std::move(*r)};
    return std::nullopt;
  });
}

std::vector<RecordedNcu> LoadRecordedNcuFiles(const std::filesystem::path& dir, std::vector<std::string>* problems) {
  return LoadFolder(dir, problems, LoadRecordedNcu);
}

}  // namespace ws::kernels
