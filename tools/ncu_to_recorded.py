#!/usr/bin/env python3
"""Turns Nsight Compute's raw CSVs into assets/recorded/ncu/<device>.json for `warpscope table`.

Each CSV is the output of
  ncu --clock-control none --csv --page raw --print-units base --metrics LIST \
      warpscope bench FAMILY/VARIANT --n N --single-launch
saved as FAMILY_VARIANT_nN.csv (ncu's default cache control flushes L1 and L2 before the kernel,
so the hardware starts cold as the simulator does). A CSV of a whole family
(`warpscope bench FAMILY --n N --single-launch`, one launch per variant in catalog order), saved
as FAMILY_nN.csv or catalog_FAMILY_nN.csv, gives one run per variant: its i-th kernel is the
family's i-th variant in `warpscope list` order (refused when the counts differ). Metrics ending in .sum are summed over the
run's kernels; others (.pct) are kept only when the run has one kernel.

usage: tools/ncu_to_recorded.py --warpscope build/warpscope --csv-dir DIR --date YYYY-MM-DD \
           --command "ncu ..." --out assets/recorded/ncu/DEVICE.json [--like OTHER_DEVICE.json]
"""
import argparse, csv, io, json, os, re, subprocess, sys

KEEP_PREFIXES = ("l1tex__", "lts__", "dram__", "smsp__", "gpu__time_duration", "launch__registers_per_thread",
                 "launch__grid_size", "launch__block_size")


def families_and_variants(ws):
    """The catalog's variant ids, in `warpscope list` order."""
    out = subprocess.run([ws, "list"], capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in out.splitlines() if line.startswith("  ")]


def run_of(variant, n, kernels):
    metrics = {}
    for key in kernels[0]:
        if not key.startswith(KEEP_PREFIXES) or key.endswith((".avg", ".max", ".min")):
            continue
        values = [number(k.get(key, "")) for k in kernels]
        if any(v is None for v in values):
            continue
        if key.endswith(".sum"):
            metrics[key] = sum(values)
        elif len(kernels) == 1:
            metrics[key] = values[0]
    return {"variant": variant, "n": n, "kernels": [k.get("Kernel Name", "") for k in kernels], "metrics": metrics}


def number(s):
    try:
        return float(s.replace(",", "").strip())
    except ValueError:
        return None


def read_csv(path):
    text = open(path, encoding="utf-8", errors="replace").read().splitlines()
    start = next((i for i, l in enumerate(text) if l.startswith('"ID"')), None)
    if start is None:
        return None, None
    rows = [r for r in csv.DictReader(io.StringIO("\n".join(text[start:]))) if number(r.get("ID", "")) is not None]
    device = rows[0].get("device__attribute_display_name", "") if rows else ""
    return rows, device


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warpscope", required=True)
    ap.add_argument("--csv-dir", required=True)
    ap.add_argument("--date", required=True)
    ap.add_argument("--command", required=True, help="the ncu command line the CSVs came from")
    ap.add_argument("--out", required=True)
    ap.add_argument("--like", help="keep only the (variant, n) runs this other recording has")
    a = ap.parse_args()
    ids = families_and_variants(a.warpscope)
    runs, device = [], ""
    for name in sorted(os.listdir(a.csv_dir)):
        m = re.fullmatch(r"(?:catalog_)?(.+)_n(\d+)\.csv", name)
        if not m:
            continue
        stem, n = m.group(1), int(m.group(2))
        variant = next((i for i in ids if i.replace("/", "_", 1) == stem), None)
        family = [i for i in ids if i.split("/")[0] == stem]
        if variant is None and not family:
            print("skipped %s: no catalog variant or family %s" % (name, stem), file=sys.stderr)
            continue
        rows, dev = read_csv(os.path.join(a.csv_dir, name))
        if not rows:
            print("skipped %s: no ncu table in it" % name, file=sys.stderr)
            continue
        device = device or dev
        kernels = [r for r in rows if "memset" not in r.get("Kernel Name", "").lower()]
        if variant is not None:
            runs.append(run_of(variant, n, kernels))
        elif len(kernels) != len(family):
            print("skipped %s: %d kernels for the %d variants of %s" % (name, len(kernels), len(family), stem),
                  file=sys.stderr)
        else:
            runs += [run_of(v, n, [k]) for v, k in zip(family, kernels)]
    if a.like:
        keep = {(r["variant"], r["n"]) for r in json.load(open(a.like))["runs"]}
        runs = [r for r in runs if (r["variant"], r["n"]) in keep]
    out = {"device": device, "date": a.date, "tool": "Nsight Compute", "command": a.command,
           "cache_control": "all (L1 and L2 flushed before each kernel: a cold start)", "runs": runs}
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print("%d runs of %s -> %s" % (len(runs), device, a.out))


if __name__ == "__main__":
    main()
