/* gmfuzz agree [PATH...] [--backends T,T,...] [--cases N] [--seed S]
 *              [--target-device cuda|cpu] [--target-timeout S]
 * (each T a builtin backend or a target, docs/TARGETS.md; --targets is
 * the same list)
 *              [--save DIR] [--gpus all|LIST]
 *
 * --gpus spreads the cases over several devices: one child process per
 * device of the list (CUDA_VISIBLE_DEVICES set to it before any CUDA work),
 * child k taking the documents and generated cases whose index is k modulo
 * the list's length (every child generates the same sequence, so a case's
 * label is the one an unspread run gives it); the totals are the sum of
 * the children's, the exit code the worst of theirs.
 *
 * The fused kernel on several backends (default cpu,cuda,cuda-graph) must
 * give the first backend's buffers bit for bit, on every case of the
 * documents in PATH and on N cases from the seeded generator
 * (harness/harness_gen.c). One line per disagreement (the case saved under
 * --save DIR when given), then "N passed, N failed". */
#include "cmd_agree.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign.h"
#include "cli_options.h"
#include "harness.h"
#include "gm_json.h"

#define CMD_AGREE_MAX_BACKENDS HARNESS_BACKEND_COUNT

static const char cmd_agree_usage[] =
    "usage: gmfuzz agree [PATH...] [--backends T,T,...] [--cases N] [--seed S] [--save DIR]\n"
    "  runs the fused kernel on several backends over the documents in PATH\n"
    "  (files, or folders searched for *.json) and N generated cases; every\n"
    "  backend must give the first one's buffers bit for bit\n"
    "  --backends T,T,...      builtin backends or targets (default cpu,cuda,cuda-graph;\n"
    "                          --targets is the same)\n"
    "  --cases N               generated cases (default 0)\n"
    "  --seed S                the generator's seed (default 1)\n"
    "  --save DIR              save each disagreeing case there\n"
    "  --target-device D       cuda or cpu, for python: targets\n"
    "  --target-timeout S      one call's limit for lib: and python: targets\n"
    "  --gpus all|LIST         spread the cases over these devices (0,1,...; a list may\n"
    "                          repeat one): one process each, case k on device k mod N\n"
    "  -h, --help              this text\n"
    "exit codes: 0 all agree, 1 a disagreement, 2 usage, 4 a backend failed, 5 nothing was\n"
    "checked (no case in PATH, no --cases)\n";

/* What a run counted (a child of --gpus sends its own to the parent). */
typedef struct {
    size_t passed, failed, out_of_bounds, big_batches, wide_tables;
} cmd_agree_counts;

typedef struct {
    harness_backend *backends[CMD_AGREE_MAX_BACKENDS];
    size_t n_backends;
    long cases;
    uint64_t seed;
    const char *save_dir;
    bool device_cpu;   /* --target-device cpu: python: targets on the CPU */
    double timeout_s;  /* --target-timeout; 0: the default */
    gm_limits limits;
    harness_paths docs;
    const char *gpus;  /* --gpus: NULL for this process alone */
    long shard, shards; /* this process runs the cases k with k % shards == shard */
    cmd_agree_counts counts;
} cmd_agree;

static bool cmd_agree_open(cmd_agree *a, const char *list) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *name = strtok(copy, ","); name != NULL; name = strtok(NULL, ",")) {
        harness_target_spec spec;
        gm_error err = {0};
        if (!harness_target_parse(name, &spec, &err) || a->n_backends == CMD_AGREE_MAX_BACKENDS) {
            fprintf(stderr, "gmfuzz agree: --backends: %s\n",
                    err.msg[0] ? err.msg : "too many targets");
            return false;
        }
        spec.device_cpu = a->device_cpu;
        spec.timeout_s = a->timeout_s > 0 ? a->timeout_s : spec.timeout_s;
        if (!harness_backend_open_target(&spec, &a->backends[a->n_backends], &err)) {
            fprintf(stderr, "gmfuzz: %s\n", err.msg);
            return false;
        }
        if (a->save_dir != NULL) {
            harness_backend_set_crash_dir(a->backends[a->n_backends], a->save_dir);
        }
        a->n_backends++;
    }
    return a->n_backends >= 2 || (fprintf(stderr, "gmfuzz agree: needs two backends\n"), false);
}

static void cmd_agree_save(const cmd_agree *a, const gm_case *c, const char *label) {
    if (a->save_dir == NULL) {
        return;
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/disagree-%s.json", a->save_dir, label);
    cJSON *root = gm_json_case(c);
    gm_error err = {0};
    if (root == NULL || !gm_json_write_file(path, root, &err)) {
        fprintf(stderr, "gmfuzz agree: could not save %s: %s\n", path, err.msg);
    }
    cJSON_Delete(root);
}

/* One case on every backend; false only when a backend failed. */
static bool cmd_agree_case(cmd_agree *a, const gm_case *c, const char *label) {
    harness_agree_outcome outcome;
    gm_error err = {0};
    if (!harness_agree_case(a->backends, a->n_backends, c, &outcome, &err)) {
        printf("FAIL %s: %s\n", label, err.msg);
        a->counts.failed++;
        return err.code != GM_ERR_DEVICE || strstr(err.msg, "later runs go on") != NULL;
    }
    a->counts.out_of_bounds += outcome.out_of_bounds;
    a->counts.big_batches += c->bs > 1024;
    a->counts.wide_tables += gm_case_max_num_pages(c) > 512;
    if (outcome.agreed) {
        a->counts.passed++;
        return true;
    }
    printf("FAIL %s: %s\n", label, outcome.message);
    cmd_agree_save(a, c, label);
    a->counts.failed++;
    return true;
}

static bool cmd_agree_documents(cmd_agree *a) {
    for (size_t i = 0; i < a->docs.count; i++) {
        if ((long)(i % (size_t)a->shards) != a->shard) {
            continue;
        }
        gm_doc doc;
        gm_doc_init(&doc);
        gm_error err = {0};
        bool ok = true;
        if (!gm_json_read_file(a->docs.items[i], &a->limits, &doc, &err)) {
            printf("FAIL %s\n", err.msg);
            a->counts.failed++;
        } else {
            ok = cmd_agree_case(a, &doc.c, a->docs.items[i]);
        }
        gm_doc_free(&doc);
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool cmd_agree_generated(cmd_agree *a) {
    harness_gen gen;
    harness_gen_seed(&gen, a->seed);
    for (long n = 0; n < a->cases; n++) {
        gm_case c;
        gm_case_init(&c);
        gm_error err = {0};
        char label[64];
        snprintf(label, sizeof label, "generated-%" PRIu64 "-%ld", a->seed, n);
        bool mine = n % a->shards == a->shard;
        bool ok = harness_gen_case(&gen, &c, &err)
                      ? !mine || cmd_agree_case(a, &c, label)
                      : (fprintf(stderr, "gmfuzz: %s\n", err.msg), false);
        gm_case_free(&c);
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* agree's options: each takes a value. */
enum { CMD_AGREE_BACKENDS = 1000, CMD_AGREE_DEVICE, CMD_AGREE_TIMEOUT, CMD_AGREE_CASES,
       CMD_AGREE_SEED, CMD_AGREE_SAVE, CMD_AGREE_GPUS };
static const struct option cmd_agree_longs[] = {
    {"backends", required_argument, NULL, CMD_AGREE_BACKENDS},
    {"targets", required_argument, NULL, CMD_AGREE_BACKENDS},
    {"target-device", required_argument, NULL, CMD_AGREE_DEVICE},
    {"target-timeout", required_argument, NULL, CMD_AGREE_TIMEOUT},
    {"cases", required_argument, NULL, CMD_AGREE_CASES},
    {"seed", required_argument, NULL, CMD_AGREE_SEED},
    {"save", required_argument, NULL, CMD_AGREE_SAVE},
    {"gpus", required_argument, NULL, CMD_AGREE_GPUS},
    {NULL, 0, NULL, 0},
};

typedef struct {
    cmd_agree *a;
    const char **backends;
} cmd_agree_scan;

/* A document path, or a usage error. */
static bool cmd_agree_other(cmd_agree *a, const cli_getopt_item *item) {
    gm_error err = {0};
    if (item->code == CLI_GETOPT_MISSING) {
        fprintf(stderr, "gmfuzz agree: %s needs a value\n", item->flag);
        return false;
    }
    if (item->code != CLI_GETOPT_ARG) {
        fprintf(stderr, "gmfuzz agree: unknown option '%s'\n", item->flag);
        return false;
    }
    if (!harness_paths_add(&a->docs, item->value, &err)) {
        fprintf(stderr, "gmfuzz: %s\n", err.msg);
        return false;
    }
    return true;
}

/* The values are read as before this command had a table: not checked
 * (--cases x is 0 cases). */
static bool cmd_agree_take(void *ctx, const cli_getopt_item *item) {
    cmd_agree_scan *scan = ctx;
    cmd_agree *a = scan->a;
    const char *value = item->value;
    switch (item->code) {
    case CMD_AGREE_BACKENDS: *scan->backends = value; return true;
    case CMD_AGREE_DEVICE: a->device_cpu = strcmp(value, "cpu") == 0; return true;
    case CMD_AGREE_TIMEOUT: a->timeout_s = strtod(value, NULL); return true;
    case CMD_AGREE_CASES: a->cases = atol(value); return true;
    case CMD_AGREE_SEED: a->seed = strtoull(value, NULL, 10); return true;
    case CMD_AGREE_SAVE: a->save_dir = value; return true;
    case CMD_AGREE_GPUS: a->gpus = value; return true;
    default: return cmd_agree_other(a, item);
    }
}

static bool cmd_agree_parse(cmd_agree *a, int argc, char **argv, const char **backends) {
    cmd_agree_scan scan = {a, backends};
    return cli_getopt_scan(argc, argv, "", cmd_agree_longs, cmd_agree_take, &scan);
}

/* Opens the backends and runs this process's share of the cases. */
static int cmd_agree_run(cmd_agree *a, const char *backends) {
    int rc = CLI_EXIT_BACKEND;
    if (cmd_agree_open(a, backends) && cmd_agree_documents(a) && cmd_agree_generated(a)) {
        rc = a->counts.failed == 0 ? CLI_EXIT_OK : CLI_EXIT_FINDING;
    }
    for (size_t i = 0; i < a->n_backends; i++) {
        harness_backend_close(a->backends[i]);
    }
    a->n_backends = 0;
    return rc;
}

/* The worse of two exit codes: a backend failure over a finding over success. */
static int cmd_agree_worse(int a, int b) {
    static const int rank[] = {[CLI_EXIT_OK] = 0, [CLI_EXIT_FINDING] = 1, [CLI_EXIT_USAGE] = 2,
                               [CLI_EXIT_BACKEND] = 3};
    int ra = a >= 0 && a <= CLI_EXIT_BACKEND ? rank[a] : 4;
    int rb = b >= 0 && b <= CLI_EXIT_BACKEND ? rank[b] : 4;
    return ra >= rb ? a : b;
}

/* --gpus: child k runs shard k of n on device list[k]; the parent sums. */
static int cmd_agree_spread(cmd_agree *a, const char *backends) {
    char list[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX];
    gm_error err = {0};
    int n = campaign_hub_gpus(a->gpus, list, &err);
    if (n < 0) {
        fprintf(stderr, "gmfuzz agree: %s\n", err.msg);
        return CLI_EXIT_USAGE;
    }
    pid_t pids[CAMPAIGN_HUBS_MAX];
    int pipes[CAMPAIGN_HUBS_MAX];
    fflush(NULL);
    for (int k = 0; k < n; k++) {
        int fd[2];
        pids[k] = pipe(fd) == 0 ? fork() : -1;
        if (pids[k] == 0) {
            close(fd[0]);
            setenv("CUDA_VISIBLE_DEVICES", list[k], 1);
            a->shard = k;
            a->shards = n;
            int rc = cmd_agree_run(a, backends);
            fflush(NULL);
            ssize_t sent = write(fd[1], &a->counts, sizeof a->counts);
            _exit(sent == (ssize_t)sizeof a->counts ? rc : CLI_EXIT_BACKEND);
        }
        close(fd[1]);
        pipes[k] = fd[0];
    }
    int rc = CLI_EXIT_OK;
    for (int k = 0; k < n; k++) {
        int status = 0;
        cmd_agree_counts c = {0};
        bool counted = pids[k] > 0 && read(pipes[k], &c, sizeof c) == (ssize_t)sizeof c;
        close(pipes[k]);
        bool ended = pids[k] > 0 && waitpid(pids[k], &status, 0) == pids[k] && WIFEXITED(status);
        if (!counted || !ended) {
            fprintf(stderr, "gmfuzz agree: the process for device %s did not finish\n", list[k]);
        }
        rc = cmd_agree_worse(rc, counted && ended ? WEXITSTATUS(status) : CLI_EXIT_BACKEND);
        a->counts.passed += c.passed;
        a->counts.failed += c.failed;
        a->counts.out_of_bounds += c.out_of_bounds;
        a->counts.big_batches += c.big_batches;
        a->counts.wide_tables += c.wide_tables;
    }
    printf("spread over %d processes, devices %s\n", n, a->gpus);
    return rc;
}

int cmd_agree_main(int argc, char **argv) {
    if (cli_options_wants_help(argc, argv)) {
        fputs(cmd_agree_usage, stdout);
        return CLI_EXIT_OK;
    }
    cmd_agree a;
    memset(&a, 0, sizeof a);
    a.seed = 1;
    a.shards = 1;
    gm_limits_default(&a.limits);
    harness_paths_init(&a.docs);
    const char *backends = "cpu,cuda,cuda-graph";
    int rc = CLI_EXIT_USAGE;
    if (cmd_agree_parse(&a, argc, argv, &backends)) {
        rc = a.gpus != NULL ? cmd_agree_spread(&a, backends) : cmd_agree_run(&a, backends);
        if (rc == CLI_EXIT_OK || rc == CLI_EXIT_FINDING) {
            printf("backends %s; %zu documents, %ld generated (seed %" PRIu64
                   "): %zu out of bounds, %zu with bs > 1024, %zu with > 512 pages\n",
                   backends, a.docs.count, a.cases, a.seed, a.counts.out_of_bounds,
                   a.counts.big_batches, a.counts.wide_tables);
            printf("%zu passed, %zu failed\n", a.counts.passed, a.counts.failed);
        }
        if (rc == CLI_EXIT_OK && a.counts.passed + a.counts.failed == 0) {
            /* Nothing is green that did not run (as replay's 5: none collected). */
            fprintf(stderr, "gmfuzz agree: nothing was checked: no case in the documents given "
                            "and no --cases; exit %d\n", CLI_EXIT_NO_DOCUMENTS);
            rc = CLI_EXIT_NO_DOCUMENTS;
        }
    }
    harness_paths_free(&a.docs);
    return rc;
}
