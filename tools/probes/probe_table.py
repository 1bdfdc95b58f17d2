#!/usr/bin/env python3
"""The cache probe's counters as a table, one row per launch (tools/probes/cache_probe.cu under
Nsight Compute: its CSV, and the labels the probe wrote in launch order), and trims a raw ncu CSV
to the columns the tools read.

usage: tools/probes/probe_table.py table PROBE_NCU.csv LABELS.txt > OUT.md
       tools/probes/probe_table.py trim RAW.csv|RAW.tsv > OUT   (keeps ID, kernel name, counters)
"""
import csv, io, sys

# Column heading -> metric (sectors unless said).
COLUMNS = [
    ("L1 ld", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("ld hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
    ("ld miss", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"),
    ("L1 st", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("st hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"),
    ("st miss", "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum"),
    ("L2->L1", "l1tex__m_xbar2l1tex_read_sectors.sum"),
    ("L2 rd", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("L2 rd hit", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"),
    ("L2 rd miss", "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"),
    ("L2 wr", "lts__t_sectors_srcunit_tex_op_write.sum"),
    ("DRAM rd B", "dram__bytes_read.sum"),
]
KEEP = ("l1tex__", "lts__", "dram__", "smsp__", "launch__", "gpu__time_duration")


def number(s):
    try:
        return float(str(s).replace(",", ""))
    except ValueError:
        return None


def rows_of(text):
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('"ID"'))
    return [r for r in csv.DictReader(io.StringIO("\n".join(lines[start:]))) if (number(r["ID"]) is not None)]


def table(csv_path, labels_path):
    rows = rows_of(open(csv_path).read())
    labels = open(labels_path).read().splitlines()
    if len(rows) != len(labels):
        sys.exit("%d profiled launches but %d labels" % (len(rows), len(labels)))
    print("| launch | " + " | ".join(c for c, _ in COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for label, r in zip(labels, rows):
        cells = []
        for _, m in COLUMNS:
            v = number(r.get(m, ""))
            cells.append("" if v is None else "%g" % v)
        print("| %s | %s |" % (label, " | ".join(cells)))


def trim(path):
    """Keeps the first columns, the kernel's name and the counters; a .tsv keeps its id prefix."""
    out, keep = sys.stdout, None
    for line in open(path):
        prefix, sep, rest = line.rstrip("\n").partition("\t") if path.endswith(".tsv") else ("", "", line.rstrip("\n"))
        cells = next(csv.reader([rest]))
        if cells and cells[0] == "ID":
            keep = [i for i, c in enumerate(cells)
                    if c in ("ID", "Kernel Name") or (c.startswith(KEEP) and not c.endswith((".avg", ".max", ".min")))]
        if not cells or keep is None:
            continue
        buf = io.StringIO()
        csv.writer(buf, quoting=csv.QUOTE_ALL, lineterminator="").writerow([cells[i] for i in keep if i < len(cells)])
        out.write(prefix + sep + buf.getvalue() + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "table":
        table(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "trim":
        trim(sys.argv[2])
    else:
        sys.exit(__doc__)
