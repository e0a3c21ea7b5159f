# The labs and sizes of the timing-trend validation, shared by
# collect_trends.sh (GPU) and compare_trends.sh (warpsim): sizes at which
# the kernels' own work dominates on the GPU and warpsim's timing model
# still simulates each program in seconds.
TREND_LABS="vector_add matmul transpose reduction histogram spmv scan microbench_coalescing microbench_bank_conflicts"
trend_args() {
    case $1 in
    vector_add) echo "4194304" ;;
    matmul) echo "256 256 256" ;;
    transpose) echo "2048 2048" ;;
    reduction) echo "4194304" ;;
    histogram) echo "4194304 4" ;;
    spmv) echo "20000" ;;
    scan) echo "1048576" ;;
    microbench_coalescing) echo "1048576" ;;
    microbench_bank_conflicts) echo "64" ;;
    esac
}
