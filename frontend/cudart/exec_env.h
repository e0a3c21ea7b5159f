/* The environment through which `warpsim exec` (frontend/cli/cmd_exec.c)
 * hands its options to warpsim's CUDA runtime in the program it runs
 * (frontend/cudart/cudart_ctx.c): one name each, spelled here only. */
#ifndef WARPSIM_EXEC_ENV_H
#define WARPSIM_EXEC_ENV_H

#define WS_ENV_GPU             "WARPSIM_GPU"              /* config name or path */
#define WS_ENV_SUMMARY_OUT     "WARPSIM_SUMMARY_OUT"      /* file for the summaries; "-" = stderr */
#define WS_ENV_JSON            "WARPSIM_JSON"             /* "1": summaries as JSON lines */
#define WS_ENV_NO_SUMMARY      "WARPSIM_NO_SUMMARY"       /* "1": no summaries */
#define WS_ENV_SUMMARY         "WARPSIM_SUMMARY"          /* full, short or none */
#define WS_ENV_LINES           "WARPSIM_LINES"            /* "1": the per-source-line report */
#define WS_ENV_LINES_OUT       "WARPSIM_LINES_OUT"        /* file for the per-line JSON lines */
#define WS_ENV_HOST_TIMES      "WARPSIM_HOST_TIMES"       /* file for each launch's host time */
#define WS_ENV_REPORT          "WARPSIM_REPORT"           /* file for the HTML report */
#define WS_ENV_FUNCTIONAL      "WARPSIM_FUNCTIONAL"       /* "1": no timing model */
#define WS_ENV_SIMULATE_ALL    "WARPSIM_SIMULATE_ALL"     /* "1": no repeated-launch reuse */
/* Milliseconds a launch runs before the progress line shows (default 1000;
 * set by tests, not by an option) */
#define WS_ENV_PROGRESS_AFTER_MS "WARPSIM_PROGRESS_AFTER_MS"
#define WS_ENV_TRACE           "WARPSIM_TRACE"            /* file for the issue trace; "-" = stdout */
#define WS_ENV_TRACE_FORMAT    "WARPSIM_TRACE_FORMAT"     /* text, json or chrome */
/* The trace's filter and limit: the values of exec's --trace-NAME options */
#define WS_ENV_TRACE_KERNEL    "WARPSIM_TRACE_KERNEL"
#define WS_ENV_TRACE_LAUNCH    "WARPSIM_TRACE_LAUNCH"
#define WS_ENV_TRACE_BLOCK     "WARPSIM_TRACE_BLOCK"
#define WS_ENV_TRACE_WARP      "WARPSIM_TRACE_WARP"
#define WS_ENV_TRACE_PC        "WARPSIM_TRACE_PC"
#define WS_ENV_TRACE_CYCLES    "WARPSIM_TRACE_CYCLES"
#define WS_ENV_TRACE_LIMIT     "WARPSIM_TRACE_LIMIT"
#define WS_ENV_MAX_WARP_INSTS  "WARPSIM_MAX_WARP_INSTS"   /* per launch; 0 = no limit */
#define WS_ENV_PROGRESS_LIMIT  "WARPSIM_PROGRESS_LIMIT"   /* warp instructions without progress */
#define WS_ENV_TIMEOUT         "WARPSIM_TIMEOUT"          /* wall-clock seconds per launch */
#define WS_ENV_MAX_CYCLES      "WARPSIM_MAX_CYCLES"       /* simulated cycles per launch */
#define WS_ENV_THREADS         "WARPSIM_THREADS"          /* threads the SMs run on; unset = the cores */
#define WS_ENV_WINDOW          "WARPSIM_WINDOW"           /* cycles per window; 1 = cycle by cycle */
/* Tests: "1" runs every cycle with SMs for two threads or more on the threads
 * (else warpsim measures which is faster); not an exec option, passed through */
#define WS_ENV_THREADS_EVERY_CYCLE "WARPSIM_THREADS_EVERY_CYCLE"
#define WS_ENV_CHECKS          "WARPSIM_CHECKS"           /* "race", "sync", "init", comma-separated */
#define WS_ENV_LEAK_CHECK      "WARPSIM_LEAK_CHECK"       /* "1": report allocations never freed */
#define WS_ENV_KEEP_PTX        "WARPSIM_KEEP_PTX"         /* --keep-ptx: folder to write each module's PTX to */
#define WS_ENV_SASS            "WARPSIM_SASS"             /* --sass: SASS listing for SASS-informed counters */
#define WS_ENV_CUDART_DIR      "WARPSIM_CUDART_DIR"       /* where warpsim's libcudart.so.13 is */

#endif
