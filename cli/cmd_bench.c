/* gmfuzz bench kernel [--json FILE] [--ncu] [--shape I] [--vs TARGET]
 *
 * --vs TARGET (python:PATH[:FUNCTION] or lib:PATH) compares gmfuzz's kernel
 * with another on the same device tensors: bench/kernel_vs.py does it in
 * torch (a python: target needs torch tensors), with this build's
 * libgmfuzz_kernel.so as "ours"; its table and JSON are its own
 * (gmfuzz-bench-kernel-vs-v1).
 *
 * The GPU benchmark of the production kernel (bench/bench_kernel.h): a
 * table on stdout and, with --json, the same rows as
 * {"format": "gmfuzz-bench-kernel-v1", "device": ..., "rows": [...]}.
 * --ncu re-runs this program under Nsight Compute once per shape
 * (`--launch-only N`, an internal flag) to read the kernel's duration. */
#include "cmd_bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"

static const char cmd_bench_usage[] =
    "usage: gmfuzz bench kernel [--json FILE] [--ncu] [--shape I] [--pool recycled|fresh]\n"
    "       gmfuzz bench kernel --vs TARGET [--json FILE] [--shape I] [--regime R]\n"
    "  the GPU benchmark of the production kernel: host time per launch call, GPU\n"
    "  time per rebuild in graph replay, GPU time after an L2 flush, ncu's duration\n"
    "  --json FILE             also write the rows as gmfuzz-bench-kernel-v1\n"
    "  --ncu                   re-run each shape under Nsight Compute\n"
    "  --shape I               one shape only\n"
    "  --pool recycled|fresh   req_to_token past the live pages (default recycled)\n"
    "  --vs TARGET             python:PATH[:FUNCTION] or lib:PATH: both kernels on the\n"
    "                          same tensors, 10 shapes x 3 data regimes (small, pool,\n"
    "                          fresh), warm and cold replay, host time, the DRAM floor\n"
    "                          (bench/kernel_vs.py, torch; $GMFUZZ_PYTHON or python3)\n"
    "  --regime R              with --vs: small, pool or fresh only\n"
    "  -h, --help              this text\n"
    "exit codes: 0 done, 2 usage, 4 no GPU or the benchmark failed\n";

#ifndef GMFUZZ_HAVE_CUDA

int cmd_bench_main(int argc, char **argv) {
    if (cli_options_wants_help(argc, argv)) {
        fputs(cmd_bench_usage, stdout);
        return CLI_EXIT_OK;
    }
    fprintf(stderr, "gmfuzz bench: this gmfuzz was built without CUDA\n");
    return CLI_EXIT_BACKEND;
}

#else

#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "bench_kernel.h"
#include "gm_json.h"

typedef struct {
    const char *json_path;
    bool ncu;
    int shape;        /* -1: all */
    int launch_only;  /* > 0: only launch (under ncu) */
    bench_kernel_pool pool;
} cmd_bench_options;

static bool cmd_bench_parse_pool(const char *name, bench_kernel_pool *out) {
    if (strcmp(name, "recycled") == 0 || strcmp(name, "fresh") == 0) {
        *out = name[0] == 'f' ? BENCH_KERNEL_POOL_FRESH : BENCH_KERNEL_POOL_RECYCLED;
        return true;
    }
    fprintf(stderr, "gmfuzz bench: --pool takes recycled or fresh\n");
    return false;
}

/* --vs: the comparison runs in bench/kernel_vs.py; argv[2..] pass through
 * (its flags are a superset of the ones meant for it). Returns its exit
 * code in the house's terms. */
static int cmd_bench_vs(int argc, char **argv) {
    const char *python = getenv("GMFUZZ_PYTHON");
    char script[1200];
    snprintf(script, sizeof script, "%s/bench/kernel_vs.py", GMFUZZ_SOURCE_DIR);
    char *args[64];
    int n = 0;
    args[n++] = (char *)(python && python[0] ? python : "python3");
    args[n++] = script;
    args[n++] = "--ours";
    args[n++] = GMFUZZ_KERNEL_LIBRARY;
    for (int i = 2; i < argc && n < 63; i++) {
        args[n++] = argv[i];
    }
    args[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(args[0], args);
        fprintf(stderr, "gmfuzz bench: cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
        fprintf(stderr, "gmfuzz bench: %s did not finish\n", script);
        return CLI_EXIT_BACKEND;
    }
    int code = WEXITSTATUS(status);
    return code == 0 ? CLI_EXIT_OK : code == 2 ? CLI_EXIT_USAGE : code == 1 ? 1 : CLI_EXIT_BACKEND;
}

static bool cmd_bench_has_vs(int argc, char **argv) {
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--vs") == 0) {
            return true;
        }
    }
    return false;
}

static const char *cmd_bench_pool_name(bench_kernel_pool pool) {
    return pool == BENCH_KERNEL_POOL_FRESH ? "fresh" : "recycled";
}

/* bench kernel's options (--vs and --regime go to bench/kernel_vs.py);
 * --launch-only N is internal: this program under ncu. */
enum { CMD_BENCH_NCU = 1000, CMD_BENCH_JSON, CMD_BENCH_SHAPE, CMD_BENCH_POOL,
       CMD_BENCH_LAUNCH_ONLY };
static const struct option cmd_bench_longs[] = {
    {"ncu", no_argument, NULL, CMD_BENCH_NCU},
    {"json", required_argument, NULL, CMD_BENCH_JSON},
    {"shape", required_argument, NULL, CMD_BENCH_SHAPE},
    {"pool", required_argument, NULL, CMD_BENCH_POOL},
    {"launch-only", required_argument, NULL, CMD_BENCH_LAUNCH_ONLY},
    {NULL, 0, NULL, 0},
};

static bool cmd_bench_take(void *ctx, const cli_getopt_item *item) {
    cmd_bench_options *o = ctx;
    switch (item->code) {
    case CMD_BENCH_NCU: o->ncu = true; return true;
    case CMD_BENCH_JSON: o->json_path = item->value; return true;
    case CMD_BENCH_SHAPE: o->shape = atoi(item->value); return true;
    case CMD_BENCH_POOL: return cmd_bench_parse_pool(item->value, &o->pool);
    case CMD_BENCH_LAUNCH_ONLY: o->launch_only = atoi(item->value); return true;
    default:
        fprintf(stderr, "gmfuzz bench: unknown or incomplete option '%s'\n",
                item->flag != NULL ? item->flag : item->value);
        return false;
    }
}

static bool cmd_bench_parse(int argc, char **argv, cmd_bench_options *o) {
    *o = (cmd_bench_options){NULL, false, -1, 0, BENCH_KERNEL_POOL_RECYCLED};
    if (argc < 2 || strcmp(argv[1], "kernel") != 0) {
        fprintf(stderr, "usage: gmfuzz bench kernel [--json FILE] [--ncu] [--shape I] "
                        "[--pool recycled|fresh]\n");
        return false;
    }
    /* "kernel" plays argv[0] for the scan of what follows it */
    if (!cli_getopt_scan(argc - 1, argv + 1, "", cmd_bench_longs, cmd_bench_take, o)) {
        return false;
    }
    if (o->shape >= BENCH_KERNEL_SHAPES) {
        fprintf(stderr, "gmfuzz bench: --shape takes 0..%d\n", BENCH_KERNEL_SHAPES - 1);
        return false;
    }
    return true;
}

/* The last two quoted fields of an ncu CSV line ("Metric Unit", "Metric
 * Value"); the value may carry thousands separators ("3,616"). */
static bool cmd_bench_ncu_value(const char *line, double *us) {
    const char *unit = NULL, *value = NULL; /* the last two quoted fields */
    for (const char *open = strchr(line, '"'); open != NULL;) {
        const char *close = strchr(open + 1, '"');
        if (close == NULL) {
            return false;
        }
        unit = value;
        value = open + 1;
        open = strchr(close + 1, '"');
    }
    if (unit == NULL) {
        return false;
    }
    char digits[64];
    size_t k = 0;
    for (const char *c = value; *c != '"' && k + 1 < sizeof digits; c++) {
        if (*c != ',') {
            digits[k++] = *c;
        }
    }
    digits[k] = '\0';
    /* ncu says "ns"/"us"/"ms" (older versions "nsecond", ...) */
    double scale = strncmp(unit, "ns", 2) == 0   ? 1e-3
                   : strncmp(unit, "ms", 2) == 0 ? 1e3
                   : unit[0] == 's'              ? 1e6
                                                 : 1;
    *us = strtod(digits, NULL) * scale;
    return k > 0;
}

/* The median kernel duration in microseconds that ncu reports for shape
 * `index`, or -1 when ncu is missing or fails. Clocks and caches are left
 * as they are (not locked, not flushed), as in back-to-back replays. */
static double cmd_bench_ncu(int index, bench_kernel_pool pool) {
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        return -1;
    }
    self[n] = '\0';
    char command[1400];
    snprintf(command, sizeof command,
             "ncu --csv --clock-control none --cache-control none "
             "--metrics gpu__time_duration.sum --kernel-name regex:fused_cuda_kernel "
             "--launch-skip 5 --launch-count 15 '%s' bench kernel --shape %d --pool %s "
             "--launch-only 25 2>/dev/null",
             self, index, cmd_bench_pool_name(pool));
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) {
        return -1;
    }
    double values[64];
    int count = 0;
    char line[2048];
    while (fgets(line, sizeof line, pipe) != NULL && count < 64) {
        if (strstr(line, "gpu__time_duration.sum") != NULL &&
            cmd_bench_ncu_value(line, &values[count])) {
            count++;
        }
    }
    pclose(pipe);
    if (count == 0) {
        return -1;
    }
    for (int i = 1; i < count; i++) { /* insertion sort: at most 64 values */
        for (int j = i; j > 0 && values[j] < values[j - 1]; j--) {
            double t = values[j];
            values[j] = values[j - 1];
            values[j - 1] = t;
        }
    }
    return values[count / 2];
}

static void cmd_bench_print(const bench_kernel_row *rows, int n, const char *device,
                            bench_kernel_pool pool) {
    printf("gmfuzz bench kernel on %s (draft_decode, swa_out of bs slots, %s pool)\n", device,
           cmd_bench_pool_name(pool));
    printf("%-26s %16s %18s %17s %16s\n", "(bs, pages, page, swa)", "host launch us",
           "graph replay us", "cold replay us", "ncu kernel us");
    for (int i = 0; i < n; i++) {
        const bench_kernel_shape *s = &rows[i].shape;
        char shape[64], ncu[32] = "n/a";
        snprintf(shape, sizeof shape, "(%lld, %lld, %lld, %s)", (long long)s->bs,
                 (long long)s->max_num_pages, (long long)s->page_size, s->swa ? "yes" : "no");
        if (rows[i].ncu_kernel_us >= 0) {
            snprintf(ncu, sizeof ncu, "%.2f", rows[i].ncu_kernel_us);
        }
        printf("%-26s %16.2f %18.2f %17.2f %16s\n", shape, rows[i].host_launch_us,
               rows[i].graph_replay_us, rows[i].cold_replay_us, ncu);
    }
}

static bool cmd_bench_write_json(const char *path, const bench_kernel_row *rows, int n,
                                 const char *device, bench_kernel_pool pool) {
    cJSON *root = cJSON_CreateObject(), *list = cJSON_CreateArray();
    cJSON_AddStringToObject(root, "format", "gmfuzz-bench-kernel-v1");
    cJSON_AddStringToObject(root, "device", device);
    cJSON_AddStringToObject(root, "pool", cmd_bench_pool_name(pool));
    cJSON_AddItemToObject(root, "rows", list);
    for (int i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "bs", (double)rows[i].shape.bs);
        cJSON_AddNumberToObject(r, "max_num_pages", (double)rows[i].shape.max_num_pages);
        cJSON_AddNumberToObject(r, "page_size", (double)rows[i].shape.page_size);
        cJSON_AddBoolToObject(r, "swa", rows[i].shape.swa);
        cJSON_AddNumberToObject(r, "host_launch_us", rows[i].host_launch_us);
        cJSON_AddNumberToObject(r, "graph_replay_us", rows[i].graph_replay_us);
        cJSON_AddNumberToObject(r, "cold_replay_us", rows[i].cold_replay_us);
        cJSON_AddNumberToObject(r, "ncu_kernel_us", rows[i].ncu_kernel_us);
        cJSON_AddItemToArray(list, r);
    }
    gm_error err = {0};
    bool ok = gm_json_write_file(path, root, &err);
    if (!ok) {
        fprintf(stderr, "gmfuzz bench: %s\n", err.msg);
    }
    cJSON_Delete(root);
    return ok;
}

int cmd_bench_main(int argc, char **argv) {
    if (cli_options_wants_help(argc, argv)) {
        fputs(cmd_bench_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc >= 2 && strcmp(argv[1], "kernel") == 0 && cmd_bench_has_vs(argc, argv)) {
        return cmd_bench_vs(argc, argv);
    }
    cmd_bench_options o;
    if (!cmd_bench_parse(argc, argv, &o)) {
        return CLI_EXIT_USAGE;
    }
    gm_error err = {0};
    if (o.launch_only > 0) {
        bool ok = bench_kernel_launch_only(&bench_kernel_shapes[o.shape < 0 ? 0 : o.shape],
                                           o.pool, o.launch_only, &err);
        return ok ? CLI_EXIT_OK : (fprintf(stderr, "gmfuzz: %s\n", err.msg), CLI_EXIT_BACKEND);
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "gmfuzz bench: no CUDA device\n");
        return CLI_EXIT_BACKEND;
    }
    bench_kernel_row rows[BENCH_KERNEL_SHAPES];
    int n = 0;
    for (int i = 0; i < BENCH_KERNEL_SHAPES; i++) {
        if (o.shape >= 0 && i != o.shape) {
            continue;
        }
        if (!bench_kernel_measure(&bench_kernel_shapes[i], o.pool, &rows[n], &err)) {
            fprintf(stderr, "gmfuzz: %s\n", err.msg);
            return CLI_EXIT_BACKEND;
        }
        rows[n++].ncu_kernel_us = o.ncu ? cmd_bench_ncu(i, o.pool) : -1;
    }
    cmd_bench_print(rows, n, prop.name, o.pool);
    return o.json_path == NULL || cmd_bench_write_json(o.json_path, rows, n, prop.name, o.pool)
               ? CLI_EXIT_OK
               : CLI_EXIT_BACKEND;
}

#endif
