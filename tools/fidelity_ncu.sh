#!/usr/bin/env bash
# On a machine with a GPU: Nsight Compute's counters for every kernel of the kernel files given
# (kernels that are not lessons: tests/fidelity/*.cu), one launch each, cold caches.
# tools/fidelity_compare.py puts them beside the simulator's.
# usage: tools/fidelity_ncu.sh WARPSCOPE OUT.csv FILE.cu...   (WS_NCU_METRICS: another metric list)
set -u
WS=$(realpath "$1"); OUTCSV=$(realpath -m "$2"); shift 2
NCU=${NCU:-ncu}
METRICS=${WS_NCU_METRICS:-dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_red.sum,smsp__inst_executed_op_global_atom.sum,launch__grid_size,launch__block_size,launch__registers_per_thread}
: > "$OUTCSV"
for f in "$@"; do
  # The file's kernels: the names its WS_KERNEL declarations give.
  for k in $(sed -n 's/^WS_KERNEL(\([A-Za-z_][A-Za-z0-9_]*\).*/\1/p' "$f"); do
    echo "== $f:$k" >&2
    # One launch of the kernel (the first, before any timing repeats), every process profiled:
    # bench builds the file with nvcc into a program of its own.
    "$NCU" --clock-control none --target-processes all --kernel-name "$k" --launch-count 1 \
        --csv --page raw --print-units base --metrics "$METRICS" \
        "$WS" bench "$f:$k" --runs 1 > /tmp/ncu_$$.txt 2>&1
    echo "bench exit $? for $f:$k" >&2
    awk -v id="$f:$k" 'f{print id "\t" $0} /^"ID"/{f=1; print id "\t" $0}' /tmp/ncu_$$.txt >> "$OUTCSV"
    grep -v '^"' /tmp/ncu_$$.txt | tail -5 >&2
  done
done
