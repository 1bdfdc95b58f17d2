#!/usr/bin/env bash
# On a machine with a GPU: the measurements behind the cache model (docs/FIDELITY.md, "Caches").
#  probe    tools/probes/cache_probe.cu run plain (clock readings, block placement, latencies)
#           and under Nsight Compute (each micro-kernel's cache counters, in launch order);
#  catalog  every catalog family at the sizes of the H100 recording, one plain launch per
#           variant, under Nsight Compute (tools/probes/split_family_csv.py makes them the
#           per-variant CSVs tools/ncu_to_recorded.py reads);
#  extra    the same at other sizes, WS_EXTRA="family=n ..." (a check of the model at sizes it was
#           not compared with), as extra_FAMILY_nN.csv;
#  files    the kernel files given in WS_FILES (default tests/fidelity/*.cu) through
#           tools/fidelity_ncu.sh with the cache counters added.
# Everything lands in OUT/caches.tar.gz, packed after each step so that a cut-off run keeps
# what it measured.
# usage: tools/probes/measure_caches.sh WARPSCOPE PROBE_BINARY OUT [probe catalog extra files]
set -u
WS=$(realpath "$1"); PROBE=$(realpath "$2"); OUT=$(realpath -m "$3"); shift 3
STEPS="${*:-probe catalog files}"
HERE=$(cd "$(dirname "$0")" && pwd)
LOGS=$(mktemp -d)/caches; mkdir -p "$LOGS" "$OUT"
pack() { tar -C "$(dirname "$LOGS")" -czf "$OUT/caches.tar.gz" caches; }
has() { [[ " $STEPS " == *" $1 "* ]]; }
# Every step stops by WS_DEADLINE (seconds from the start; default 570) so that OUT is packed in time.
END=$(( $(date +%s) + ${WS_DEADLINE:-570} ))
left() { local l=$(( END - $(date +%s) )); (( l < $1 )) && echo $(( l > 5 ? l : 5 )) || echo "$1"; }
stamp() { echo "== $(date +%T) $*" | tee -a "$LOGS/steps.txt"; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,memory.total --format=csv > "$LOGS/nvidia-smi.csv" 2>&1
ncu --version > "$LOGS/ncu_version.txt" 2>&1
ncu --query-metrics > "$LOGS/query_metrics.txt" 2>&1
# The names this device knows (by base name), comma-separated; unknown ones are logged.
known() {
  local out="" m
  local listed; listed=$(grep -c "__" "$LOGS/query_metrics.txt")
  for m in "$@"; do
    if [[ $m == launch__* || $listed -lt 100 ]] || grep -q "^${m%.*} " "$LOGS/query_metrics.txt"; then out+="${out:+,}$m"; else echo "$m" >> "$LOGS/unknown_metrics.txt"; fi
  done
  echo "$out"
}
CACHE_EXTRA=(
  l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum
  l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum
  l1tex__m_l1tex2xbar_write_sectors.sum l1tex__m_l1tex2xbar_req.sum
  lts__t_requests_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum
  lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum lts__t_sectors_op_read.sum lts__t_sectors_op_read_lookup_miss.sum
  lts__t_sectors_srcunit_ltcfabric.sum lts__t_sectors_srcunit_tex_lookup_miss.sum lts__t_sectors.sum
  lts__t_sectors_lookup_miss.sum dram__sectors_read.sum dram__bytes_write.sum lts__d_sectors_fill_device.sum
  lts__d_sectors_fill_sysmem.sum)
PROBE_METRICS=$(known \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
  l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum \
  l1tex__t_sector_hit_rate.pct lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum lts__t_sectors_srcunit_tex_op_write.sum dram__bytes_read.sum \
  gpu__time_duration.sum "${CACHE_EXTRA[@]}")
# The H100 recording's metrics (assets/recorded/ncu) and the extra cache counters.
CATALOG_METRICS=$(known $(python3 -c "
import json; r = json.load(open('assets/recorded/ncu/NVIDIA_H100_80GB_HBM3.json'))
print(' '.join(sorted(set(k for run in r['runs'] for k in run['metrics']))))") "${CACHE_EXTRA[@]}")
echo "$PROBE_METRICS" > "$LOGS/probe_metrics.txt"
echo "$CATALOG_METRICS" > "$LOGS/catalog_metrics.txt"
NCU=(ncu --clock-control none --csv --page raw --print-units base)
if ! "$WS" list > /dev/null 2> "$LOGS/warpscope_list.err"; then
  echo "warpscope does not run here: catalog and files skipped" | tee -a "$LOGS/steps.txt"
  ldd "$WS" >> "$LOGS/warpscope_list.err" 2>&1
  STEPS=${STEPS//catalog/}; STEPS=${STEPS//files/}
fi
if ! "$PROBE" --check > /dev/null 2>&1 && [[ -f "$HERE/cache_probe.cu" ]]; then  # built elsewhere: build it here
  nvcc -O3 -arch=sm_90 -std=c++17 -o "$LOGS/../cache_probe" "$HERE/cache_probe.cu" > "$LOGS/probe_build.log" 2>&1
  PROBE="$LOGS/../cache_probe"
fi
pack

if has probe; then
  stamp "probe, plain"
  timeout $(left 180) "$PROBE" "$LOGS" > "$LOGS/probe_plain.log" 2>&1; echo "exit $?" >> "$LOGS/probe_plain.log"
  pack
  stamp "probe, under ncu"
  timeout $(left 300) "${NCU[@]}" --kernel-name regex:^probe --metrics "$PROBE_METRICS" "$PROBE" "$LOGS" --ncu \
      > "$LOGS/probe_ncu.csv" 2> "$LOGS/probe_ncu.err"; echo "exit $?" >> "$LOGS/probe_ncu.err"
  pack
fi

if has catalog; then
  # The (family, n) pairs of the H100 recording.
  for fn in $(python3 -c "
import json; r = json.load(open('assets/recorded/ncu/NVIDIA_H100_80GB_HBM3.json'))
print(' '.join(sorted({'%s=%d' % (x['variant'].split('/')[0], x['n']) for x in r['runs']})))"); do
    fam=${fn%=*}; n=${fn#*=}
    stamp "catalog $fam n=$n"
    timeout $(left 240) "${NCU[@]}" --metrics "$CATALOG_METRICS" "$WS" bench "$fam" --n "$n" --single-launch \
        > "$LOGS/catalog_${fam}_n${n}.csv" 2> "$LOGS/catalog_${fam}_n${n}.err"
    echo "exit $?" >> "$LOGS/catalog_${fam}_n${n}.err"
    pack
  done
fi

if has extra; then
  for fn in ${WS_EXTRA:-}; do
    fam=${fn%=*}; n=${fn#*=}
    stamp "extra $fam n=$n"
    timeout $(left 240) "${NCU[@]}" --metrics "$CATALOG_METRICS" "$WS" bench "$fam" --n "$n" --single-launch \
        > "$LOGS/extra_${fam}_n${n}.csv" 2> "$LOGS/extra_${fam}_n${n}.err"
    pack
  done
fi

if has files; then
  stamp "kernel files"
  WS_NCU_METRICS="$CATALOG_METRICS" timeout $(left 400) bash "$HERE/../fidelity_ncu.sh" "$WS" "$LOGS/fidelity_ncu_H200.tsv" \
      ${WS_FILES:-tests/fidelity/*.cu} 2> "$LOGS/fidelity_ncu.err"
  pack
fi
stamp "done"
pack
