#!/usr/bin/env python3
"""Puts the simulator's counters beside Nsight Compute's for kernel files that are not lessons.

ncu's figures come from tools/fidelity_ncu.sh, run on a machine with a GPU (one launch of each
kernel, cold caches); the simulator's from `warpscope stats FILE.cu:kernel --json` here, at the
same size (each kernel's teaching and timing sizes are the same in tests/fidelity/).
Global requests and sectors and shared instructions must match exactly; shared wavefronts and
bank conflicts within 2%, as tools/ncu_compare.py asks of the catalog.

usage: tools/fidelity_compare.py --warpscope build/warpscope --ncu tools/reports/fidelity_ncu_H100.tsv
           [--known tests/fidelity/known_misses.txt] [--markdown OUT.md]
       tools/fidelity_compare.py --warpscope build/warpscope --ncu tools/reports/fidelity_ncu_H200.tsv --caches H200
       tools/fidelity_compare.py ... --as-compiled   (the simulator's counters as the compiled code runs them)
With --known (the ctest): exit 1 on a miss the file does not list, and on a listed one that now
agrees (the list can only shrink). With --caches DEVICE: the cache model's counters instead, under
the bounds tools/ncu_compare.py sets the catalog (CACHE_BOUNDS), simulated on that device's profile.
"""
import argparse, csv, io, json, os, subprocess, sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ncu_compare import CACHE_BOUNDS, verdict  # noqa: E402  (one statement of the bounds)

EXACT = ("l1tex__t_requests_pipe_lsu_mem_global", "l1tex__t_sectors_pipe_lsu_mem_global",
         "smsp__sass_inst_executed_op_shared")
WITHIN_2PCT = ("l1tex__data_pipe_lsu_wavefronts_mem_shared", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared")


def number(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return None


def read_ncu(path):
    """{kernel id: {metric: value}} from the tab-prefixed CSV that fidelity_ncu.sh writes."""
    by_id = OrderedDict()
    for line in open(path):
        if line.startswith("#"):
            continue
        kid, _, row = line.rstrip("\n").partition("\t")
        by_id.setdefault(kid, []).append(row)
    out = OrderedDict()
    for kid, rows in by_id.items():
        table = list(csv.DictReader(io.StringIO("\n".join(rows))))
        table = [r for r in table if number(r.get("ID", "")) is not None]  # drop the units row
        if table:
            out[kid] = {k: number(v) for k, v in table[0].items() if number(v) is not None}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", required=True)
    ap.add_argument("--ncu", required=True)
    ap.add_argument("--markdown")
    ap.add_argument("--known")
    ap.add_argument("--caches", metavar="DEVICE", help="judge the cache counters, simulated on this device")
    ap.add_argument("--as-compiled", action="store_true",
                    help="compare `stats --as-compiled`: the lines nvcc compiled differently counted as it runs them")
    a = ap.parse_args()
    if a.caches:
        return compare_caches(a)
    rows, misses, missed = [], 0, set()
    for kid, hw in read_ncu(a.ncu).items():
        r = subprocess.run([a.warpscope, "stats", kid, "--json"] + (["--as-compiled"] if a.as_compiled else []),
                           capture_output=True, text=True)
        if r.returncode != 0:
            rows.append((kid, "(simulator)", "", "", "FAILED: " + (r.stderr.strip() or r.stdout.strip())[:200]))
            misses += 1
            missed.add((kid, "(simulator)"))
            continue
        sim = json.loads(r.stdout)["metrics"]
        for metric in sorted(sim):
            if not metric.startswith(EXACT + WITHIN_2PCT) or metric not in hw:
                continue
            s, h = float(sim[metric]), hw[metric]
            if s == 0 and h == 0:
                continue
            ok = s == h if metric.startswith(EXACT) else abs(s - h) <= 0.02 * max(abs(h), 1)
            misses += not ok
            if not ok:
                missed.add((kid, metric))
            rows.append((kid, metric, "%g" % s, "%g" % h, "equal" if s == h else ("within 2%" if ok else "MISS")))
    lines = ["| kernel | metric | simulator | H100 (ncu) | |", "|---|---|---:|---:|---|"]
    lines += ["| %s | `%s` | %s | %s | %s |" % row for row in rows]
    text = "\n".join(lines) + "\n\n%d of %d figures outside the bounds\n" % (misses, len(rows))
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text)
    if not a.known:
        return 1 if misses else 0
    # One list may serve several recordings: only its entries for kernels this one measured count.
    measured = set(read_ncu(a.ncu))
    known = {tuple(l.split()[:2]) for l in open(a.known) if l.strip() and not l.startswith("#")}
    known = {k for k in known if k[0] in measured}
    new, fixed = sorted(missed - known), sorted(known - missed)
    for kid, metric in new:
        print("NEW MISS (not in %s): %s %s" % (a.known, kid, metric))
    for kid, metric in fixed:
        print("NOW AGREES (remove it from %s): %s %s" % (a.known, kid, metric))
    return 1 if new or fixed else 0


def compare_caches(a):
    """The cache counters of every kernel of the recording beside ncu's, within CACHE_BOUNDS."""
    judged = outside = 0
    lines = ["| kernel | L1 hit % sim / ncu | L1 ld hit % sim / ncu | L2 read sectors sim / ncu | DRAM read bytes sim / ncu |",
             "|---|---|---|---|---|"]
    for kid, hw in read_ncu(a.ncu).items():
        r = subprocess.run([a.warpscope, "stats", kid, "--json", "--device", a.caches], capture_output=True, text=True)
        if r.returncode != 0:
            lines.append("| %s | FAILED: %s | | | |" % (kid, (r.stderr.strip() or r.stdout.strip())[:200]))
            outside += 1
            continue
        sim = json.loads(r.stdout)["metrics"]
        cells = []
        for m in CACHE_BOUNDS:
            if m not in hw or m not in sim:
                cells.append("-")
                continue
            v = verdict(m, float(sim[m]), hw[m])
            judged += 1
            outside += v == "OUTSIDE"
            cells.append("%.4g / %.4g%s" % (float(sim[m]), hw[m], "" if v == "within" else " **out**"))
        lines.append("| %s | %s |" % (kid, " | ".join(cells)))
    text = "\n".join(lines) + "\n\n%d judged comparisons on %s, %d outside their bounds\n" % (judged, a.caches, outside)
    print(text)
    if a.markdown:
        open(a.markdown, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
