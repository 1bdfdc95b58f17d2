#!/usr/bin/env python3
"""Puts the simulator's counters beside Nsight Compute's for every catalog variant.

For each variant: `warpscope stats VARIANT --json` (the family's teaching size) gives the
simulator's counts under ncu's metric names; `ncu --clock-control none --metrics ...` over
`warpscope bench VARIANT --n N --single-launch` (one plain launch of the same source, same
size, same seed, same launch shape) gives the hardware's, summed over the run's kernels.
Global requests and sectors must match exactly; shared wavefronts and bank conflicts within 2%.
The cache model's counters have bounds (CACHE_BOUNDS): L1 hit rates within 5 percentage points,
L2 read sectors within 10%, DRAM bytes read within 15%; its other counters are shown, not judged.

usage: tools/ncu_compare.py --warpscope build-gpu/warpscope --out DIR [VARIANT...]
       tools/ncu_compare.py --warpscope build/warpscope --recorded assets/recorded/ncu/FILE.json [VARIANT...]

--recorded needs no GPU: it compares the simulator with figures ncu measured earlier (every run of
the file, at its n), under the same rules, and prints only the comparisons that differ.
       tools/ncu_compare.py --warpscope build/warpscope --recorded assets/recorded/ncu/DEVICE.json --caches --out DIR
--caches: only the cache model's counters, for every (variant, size) recorded, simulated on the
recorded device's profile, as a table (cache_compare.csv and .md in DIR) with the bounds.
"""
import argparse, csv, io, json, os, subprocess, sys

EXACT = ("l1tex__t_requests_pipe_lsu_mem_global", "l1tex__t_sectors_pipe_lsu_mem_global",
         "smsp__sass_inst_executed_op_shared")
WITHIN_2PCT = ("l1tex__data_pipe_lsu_wavefronts_mem_shared", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared")


def variants(ws):
    out = subprocess.run([ws, "list"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith("  ")]


def ncu_available_bases(ncu):
    r = subprocess.run([ncu, "--query-metrics"], capture_output=True, text=True)
    return {line.split()[0] for line in r.stdout.splitlines() if line and not line.startswith(" ") and "__" in line}


def parse_number(s):
    s = s.replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return None


def run_ncu(ncu, ws, variant, n, metrics, log):
    cmd = [ncu, "--clock-control", "none", "--csv", "--page", "raw", "--print-units", "base",
           "--metrics", ",".join(metrics + ["launch__grid_size", "launch__block_size"]),
           ws, "bench", variant, "--n", str(n), "--single-launch"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    log.write("$ " + " ".join(cmd) + "\n" + r.stdout + r.stderr + "\n")
    lines = r.stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        return None, [], "ncu printed no table (exit %d)" % r.returncode
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
    rows = [row for row in rows if parse_number(row.get("ID", "")) is not None]  # drop the units row
    kernels = [row for row in rows if "memset" not in row.get("Kernel Name", "").lower()]
    sums = {m: sum(parse_number(k.get(m, "")) or 0 for k in kernels) for m in metrics}
    shapes = [(k.get("Kernel Name", "?"), k.get("launch__grid_size"), k.get("launch__block_size")) for k in kernels]
    return sums, shapes, ""


# metric -> (kind, bound): "points" = absolute difference in percentage points, "relative" =
# |sim - hw| / hw. Other cache metrics are informational (the model does not aim at them).
CACHE_BOUNDS = {
    "l1tex__t_sector_hit_rate.pct": ("points", 5.0),
    "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct": ("points", 5.0),
    "lts__t_sectors_srcunit_tex_op_read.sum": ("relative", 0.10),
    "dram__bytes_read.sum": ("relative", 0.15),
}
CACHE_INFO = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup", "lts__t_sectors_srcunit_tex_op_read_lookup",
              "lts__t_sectors_srcunit_tex_op_write", "lts__t_sector_hit_rate", "dram__bytes_write")


def verdict(name, sim, hw):
    if hw is None:
        return "not measured"
    if name in CACHE_BOUNDS:
        kind, bound = CACHE_BOUNDS[name]
        diff = abs(sim - hw) if kind == "points" else abs(sim - hw) / max(abs(hw), 1.0)
        return "within" if diff <= bound + 1e-9 else "OUTSIDE"
    if any(name.startswith(p) for p in CACHE_INFO):
        return "shown"
    if any(name.startswith(p) for p in EXACT):
        return "exact" if sim == hw else "DIFFERS"
    if any(name.startswith(p) for p in WITHIN_2PCT):
        if sim == hw:
            return "exact"
        base = max(abs(hw), 1.0)
        return "within 2%" if abs(sim - hw) / base <= 0.02 else "DIFFERS"
    return "exact" if sim == hw else "DIFFERS"


def stats(ws, variant, n=None):
    cmd = [ws, "stats", variant, "--json"] + ([] if n is None else ["--n", str(n)])
    st = json.loads(subprocess.run(cmd, capture_output=True, text=True).stdout)
    return st, {k: float(x) for k, x in st["metrics"].items() if not k.startswith("warpscope__")}


def compare_recorded(ws, path, only):
    runs = json.load(open(path))["runs"]
    total = bad = 0
    for run in runs:
        if only and run["variant"] not in only:
            continue
        _, sim = stats(ws, run["variant"], run["n"])
        for m, sv in sorted(sim.items()):
            hv = run["metrics"].get(m)
            if hv is None:
                continue
            total += 1
            v = verdict(m, sv, hv)
            if v == "DIFFERS":
                bad += 1
                print("DIFFERS %s n=%d %s: simulator %g, ncu %g" % (run["variant"], run["n"], m, sv, hv))
    print("%d comparisons with %s, %d differ" % (total, os.path.basename(path), bad))
    return 0


def compare_recorded_caches(ws, path, out, only):
    """The cache counters of every recorded (variant, n) beside the recording's."""
    rec = json.load(open(path))
    device = rec["device"]
    rows = []
    for run in rec["runs"]:
        v, n = run["variant"], run["n"]
        if only and v not in only:
            continue
        r = subprocess.run([ws, "stats", v, "--n", str(n), "--json", "--device", device],
                           capture_output=True, text=True)
        try:
            st = json.loads(r.stdout)
        except ValueError:
            print("%s n=%d: warpscope failed: %s" % (v, n, r.stderr.strip()), flush=True)
            continue
        hw = run["metrics"]
        for m in list(CACHE_BOUNDS) + [k for k in sorted(st["metrics"]) if k.startswith(CACHE_INFO)]:
            sv, hv = st["metrics"].get(m), hw.get(m)
            if sv is None:
                continue
            rows.append({"variant": v, "n": n, "metric": m, "simulator": sv, "ncu": "" if hv is None else hv,
                         "verdict": verdict(m, sv, hv), "seconds": st.get("simulated_seconds", "")})
        print("%s n=%d done (%.1f s)" % (v, n, st.get("simulated_seconds", 0)), flush=True)
    with open(os.path.join(out, "cache_compare.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    judged = [r for r in rows if r["verdict"] in ("within", "OUTSIDE")]
    bad = [r for r in judged if r["verdict"] == "OUTSIDE"]
    with open(os.path.join(out, "cache_compare.md"), "w") as f:
        f.write("| variant | n | L1 hit % sim / ncu | L1 ld hit % sim / ncu | L2 read sectors sim / ncu | "
                "DRAM read bytes sim / ncu |\n|---|---|---|---|---|---|\n")
        keys = sorted({(r["variant"], r["n"]) for r in rows})
        for key in keys:
            cells = []
            for m in CACHE_BOUNDS:
                r = next((x for x in rows if (x["variant"], x["n"]) == key and x["metric"] == m), None)
                if r is None or r["ncu"] == "":
                    cells.append("-")
                    continue
                mark = "" if r["verdict"] == "within" else " **out**"
                cells.append("%.4g / %.4g%s" % (r["simulator"], r["ncu"], mark))
            f.write("| %s | %d | %s |\n" % (key[0], key[1], " | ".join(cells)))
    print("%d judged comparisons on %s, %d outside their bounds" % (len(judged), device, len(bad)))
    for r in bad:
        print("OUTSIDE %s n=%d %s: simulator %g, ncu %g" % (r["variant"], r["n"], r["metric"], r["simulator"], r["ncu"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--recorded", help="compare with this recorded ncu file instead of running ncu")
    ap.add_argument("--warpscope", default="build-gpu/warpscope")
    ap.add_argument("--ncu", default="ncu")
    ap.add_argument("--out", default="ncu-out")
    ap.add_argument("--caches", action="store_true",
                    help="with --recorded: the cache counters only, as a table in --out with their bounds")
    ap.add_argument("variant", nargs="*")
    a = ap.parse_args()
    if a.recorded and a.caches:
        os.makedirs(a.out, exist_ok=True)
        return compare_recorded_caches(os.path.abspath(a.warpscope), a.recorded, a.out, a.variant)
    if a.recorded:
        return compare_recorded(os.path.abspath(a.warpscope), a.recorded, set(a.variant))
    os.makedirs(a.out, exist_ok=True)
    ws = os.path.abspath(a.warpscope)
    todo = a.variant or variants(ws)
    bases = ncu_available_bases(a.ncu)
    log = open(os.path.join(a.out, "ncu_log.txt"), "w")
    rows = []
    for v in todo:
        st, sim_metrics = stats(ws, v)
        n = st["n"]
        names = [m for m in sim_metrics if not bases or m.split(".")[0] in bases]
        missing = [m for m in sim_metrics if m not in names]
        hw, shapes, err = run_ncu(a.ncu, ws, v, n, names, log)
        sim_shape = "grid %s block %s" % ("x".join(map(str, st["launch"]["grid"])), "x".join(map(str, st["launch"]["block"])))
        hw_shape = "; ".join("%s grid %s block %s" % s for s in shapes)
        print("%s n=%d  sim: %s  ncu: %s %s" % (v, n, sim_shape, hw_shape, err), flush=True)
        for m, sv in sim_metrics.items():
            hv = None if (hw is None or m in missing) else hw.get(m)
            rows.append({"variant": v, "n": n, "metric": m, "simulator": sv,
                         "ncu": "" if hv is None else hv, "difference": "" if hv is None else sv - hv,
                         "verdict": verdict(m, sv, hv), "sim_launch": sim_shape, "ncu_launches": hw_shape,
                         "note": err or ("metric not on this device" if m in missing else "")})
    with open(os.path.join(a.out, "ncu_compare.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    bad = [r for r in rows if r["verdict"] == "DIFFERS"]
    with open(os.path.join(a.out, "ncu_compare.md"), "w") as f:
        f.write("| variant | n | metric | simulator | ncu | verdict |\n|---|---|---|---|---|---|\n")
        for r in rows:
            if r["simulator"] == 0 and (r["ncu"] in ("", 0, 0.0)):
                continue
            f.write("| %s | %d | %s | %g | %s | %s |\n" % (r["variant"], r["n"], r["metric"], r["simulator"],
                                                        r["ncu"] if r["ncu"] == "" else "%g" % r["ncu"], r["verdict"]))
    print("%d comparisons, %d differ" % (len(rows), len(bad)))
    for r in bad:
        print("DIFFERS %s %s: simulator %g, ncu %g" % (r["variant"], r["metric"], r["simulator"], r["ncu"]))


if __name__ == "__main__":
    sys.exit(main())
