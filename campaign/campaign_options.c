#include "campaign_options.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_engine.h"
#include "campaign_hub.h"
#include "gm_decimal.h"
#include "harness.h"

void campaign_options_default(campaign_options *o) {
    memset(o, 0, sizeof *o);
    o->engine = CAMPAIGN_LIBFUZZER;
    o->batch = 64;
    o->shape_run = 1;
    o->hubs = -1;
    o->hub_lanes = HARNESS_HUB_LANES_DEFAULT;
    o->backend = "cpu";
    o->time_s = CAMPAIGN_DEFAULT_TIME_S;
    o->stall_s = CAMPAIGN_DEFAULT_STALL_S;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o->jobs = cores > 0 ? (int)cores : 1;
    o->compare = GM_COMPARE_LIVE;
    o->minimize = true;
}

/* ---- the flag table -------------------------------------------------
 *
 * Each of the campaign's flags once: its name, its value (the name the help
 * gives it; NULL: a switch), how it is set, and its help in `gmfuzz fuzz
 * --help` and `gmfuzz sweep --help` (cli/cmd_fuzz.c prints both, and
 * builds its getopt_long table, from here). */

typedef enum {
    CAMPAIGN_OPTIONS_SECONDS, /* double: seconds, > 0, at most a year */
    CAMPAIGN_OPTIONS_U64,     /* uint64_t in [lo, hi] */
    CAMPAIGN_OPTIONS_INT,     /* int in [lo, hi] */
    CAMPAIGN_OPTIONS_PATH,    /* const char *: not empty */
    CAMPAIGN_OPTIONS_CHOICE,  /* const char *: one of arg's '|'-separated words */
    CAMPAIGN_OPTIONS_ON,      /* switch: bool = true */
    CAMPAIGN_OPTIONS_OFF,     /* switch: bool = false */
    CAMPAIGN_OPTIONS_NONE,    /* switch: const char * = "" (none) */
    CAMPAIGN_OPTIONS_CUSTOM,  /* set() */
} campaign_options_kind;

typedef struct {
    const char *name; /* without "--" */
    const char *arg;
    campaign_options_kind kind;
    size_t field; /* offsetof(campaign_options, ...) */
    uint64_t lo, hi;
    bool (*set)(campaign_options *o, const char *value);
    unsigned shown;         /* CAMPAIGN_HELP_* bits: whose help lists it */
    const char *help;       /* lines after the first: '\n' */
    const char *sweep_help; /* NULL: help */
} campaign_options_flag;

#define CAMPAIGN_OPTIONS_BOTH ((1u << CAMPAIGN_HELP_FUZZ) | (1u << CAMPAIGN_HELP_SWEEP))
#define CAMPAIGN_OPTIONS_FUZZ (1u << CAMPAIGN_HELP_FUZZ)

static bool campaign_options_engine(campaign_options *o, const char *value) {
    return campaign_engine_from_name(value, &o->engine);
}

static bool campaign_options_compare(campaign_options *o, const char *value) {
    return gm_compare_from_name(value, &o->compare);
}

static bool campaign_options_reference(campaign_options *o, const char *value) {
    o->reference = value;
    return strncmp(value, "python", 6) == 0;
}

/* A target spec, else the engine's binary. */
static bool campaign_options_fused(campaign_options *o, const char *value) {
    harness_target_spec spec;
    gm_error err = {0};
    if (!harness_target_parse(value, &spec, &err)) {
        o->target = value;
        return value[0] != '\0';
    }
    o->fused = value;
    if (spec.kind == HARNESS_TARGET_BUILTIN) {
        o->backend = spec.builtin == HARNESS_BACKEND_CPU ? "cpu" : "cuda";
    }
    return spec.kind != HARNESS_TARGET_BUILTIN || spec.builtin == HARNESS_BACKEND_CPU ||
           spec.builtin == HARNESS_BACKEND_CUDA;
}

static bool campaign_options_gpus(campaign_options *o, const char *value) {
    char list[CAMPAIGN_HUBS_MAX][CAMPAIGN_GPU_NAME_MAX];
    gm_error err = {0};
    o->gpus = value;
    return strcmp(value, "all") == 0 || campaign_hub_gpus(value, list, &err) > 0;
}

static const campaign_options_flag campaign_options_flags[] = {
    {"engine", "libfuzzer|afl++|sweep", CAMPAIGN_OPTIONS_CUSTOM, 0, 0, 0, campaign_options_engine,
     CAMPAIGN_OPTIONS_FUZZ,
     "the fuzzing engine (default libfuzzer); sweep:\n"
     "generated cases in batches, no coverage (gmfuzz sweep)", NULL},
    {"batch", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(batch), 1, 65536, NULL,
     CAMPAIGN_OPTIONS_BOTH, "sweep: cases per round trip to the target (default 64)",
     "cases per round trip to the target (default 64)"},
    {"shape-run", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(shape_run), 1, 65536, NULL,
     CAMPAIGN_OPTIONS_BOTH, "sweep: cases drawn per shape (default 1)",
     "cases drawn per shape: the same sizes and scalars,\n"
     "new contents (default 1); for a python: worker\n"
     "replaying CUDA graphs (GMFUZZ_TARGET_GRAPHS=1)"},
    {"cases", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(runs), 1, UINT64_MAX / 2, NULL,
     CAMPAIGN_OPTIONS_BOTH, "sweep: cases per job, then stop (libFuzzer: as runs)",
     "cases per job, then stop"},
    {"schedule", "auto|classes|naive", CAMPAIGN_OPTIONS_CHOICE, CAMPAIGN_OPTIONS_AT(schedule), 0,
     0, NULL, CAMPAIGN_OPTIONS_BOTH,
     "the order of the cases: in runs of one specialization\n"
     "class, new classes within a JIT budget (classes), or\n"
     "each drawn anew (naive); auto: classes when the target\n"
     "reports its compiles (docs/TARGETS.md)", NULL},
    {"class-run", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(class_run), 1, 1u << 20, NULL,
     CAMPAIGN_OPTIONS_BOTH, "cases a run of one class (default 256)", NULL},
    {"class-budget", "PERCENT", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(class_budget), 1, 100,
     NULL, CAMPAIGN_OPTIONS_BOTH, "of the time new classes may cost (default 10)", NULL},
    {"class-warm", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(class_warm), 1, 1u << 16, NULL,
     CAMPAIGN_OPTIONS_BOTH, "new classes met at once at the start (default 4)", NULL},
    {"hubs", "N", CAMPAIGN_OPTIONS_INT, CAMPAIGN_OPTIONS_AT(hubs), 0, 64, NULL,
     CAMPAIGN_OPTIONS_BOTH,
     "processes that own a GPU target for all jobs\n"
     "(default: 1 for a builtin CUDA or lib: target, else 0:\n"
     "each job its own worker; docs/TARGETS.md)",
     "processes that own a GPU target for all jobs\n"
     "(default: 1 for a builtin CUDA or lib: target)"},
    {"hub-lanes", "N", CAMPAIGN_OPTIONS_INT, CAMPAIGN_OPTIONS_AT(hub_lanes), 1,
     HARNESS_HUB_LANES_MAX, NULL, CAMPAIGN_OPTIONS_FUZZ,
     "threads per hub of a builtin target (default 8)", NULL},
    {"gpus", "all|LIST", CAMPAIGN_OPTIONS_CUSTOM, 0, 0, 0, campaign_options_gpus,
     CAMPAIGN_OPTIONS_BOTH,
     "one hub per device (0,1,...; a list may repeat one),\n"
     "job k on hub k mod N; all: CUDA_VISIBLE_DEVICES or\n"
     "every GPU", "one hub per device (0,1,...), job k on hub k mod N"},
    {"backend", "cpu|cuda", CAMPAIGN_OPTIONS_CHOICE, CAMPAIGN_OPTIONS_AT(backend), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "where the fused kernel runs (default cpu)",
     "where the builtin fused kernel runs (default cpu)"},
    {"time", "S", CAMPAIGN_OPTIONS_SECONDS, CAMPAIGN_OPTIONS_AT(time_s), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "wall-clock seconds (default 60)", NULL},
    {"jobs", "N", CAMPAIGN_OPTIONS_INT, CAMPAIGN_OPTIONS_AT(jobs), 1, 1024, NULL,
     CAMPAIGN_OPTIONS_BOTH, "engine processes (default: all cores)",
     "sweep processes (default: all cores)"},
    {"out", "DIR", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(out_dir), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "output folder (default out/fuzz-<UTC time>)", NULL},
    {"compare", "live|strict", CAMPAIGN_OPTIONS_CUSTOM, 0, 0, 0, campaign_options_compare,
     CAMPAIGN_OPTIONS_BOTH, "comparison level (default live)", NULL},
    {"strict-baseline", NULL, CAMPAIGN_OPTIONS_ON, CAMPAIGN_OPTIONS_AT(strict_baseline), 0, 0,
     NULL, CAMPAIGN_OPTIONS_BOTH, "every mismatch is a failure, known or not", NULL},
    {"baseline", "FILE", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(baseline), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "known differences (default corpus/known.json)", NULL},
    {"target", "T", CAMPAIGN_OPTIONS_CUSTOM, 0, 0, 0, campaign_options_fused,
     CAMPAIGN_OPTIONS_BOTH,
     "the fused side: builtin:cpu|cuda, lib:PATH.so or\n"
     "python:[MODULE][:FUNCTION] (docs/TARGETS.md)", NULL},
    {"target-device", "cuda|cpu", CAMPAIGN_OPTIONS_CHOICE, CAMPAIGN_OPTIONS_AT(target_device), 0,
     0, NULL, CAMPAIGN_OPTIONS_BOTH, "where a python: target's tensors live (default cuda)",
     NULL},
    {"target-timeout", "S", CAMPAIGN_OPTIONS_SECONDS, CAMPAIGN_OPTIONS_AT(target_timeout_s), 0,
     0, NULL, CAMPAIGN_OPTIONS_BOTH,
     "one call's execution limit for lib: and python:\n"
     "(default 10)", NULL},
    {"target-compile-timeout", "S", CAMPAIGN_OPTIONS_SECONDS,
     CAMPAIGN_OPTIONS_AT(target_compile_timeout_s), 0, 0, NULL, CAMPAIGN_OPTIONS_BOTH,
     "one compile or load a python: target reports, and\n"
     "the re-run that confirms a hang of a target whose\n"
     "compiles gmfuzz cannot see (default 300)", NULL},
    {"target-start-timeout", "S", CAMPAIGN_OPTIONS_SECONDS,
     CAMPAIGN_OPTIONS_AT(target_start_timeout_s), 0, 0, NULL, CAMPAIGN_OPTIONS_BOTH,
     "a python: target's start-up (import, HELLO): past it\n"
     "the job stops and the campaign exits 4, \"target did\n"
     "not start within S s\" (default 180)", NULL},
    {"target-cache", "DIR", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(target_cache), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH,
     "the target JIT's on-disk cache for every process\n"
     "(TRITON_CACHE_DIR; keep it between campaigns)", NULL},
    {"reference", "python:[MODULE][:FUNCTION]", CAMPAIGN_OPTIONS_CUSTOM, 0, 0, 0,
     campaign_options_reference, CAMPAIGN_OPTIONS_BOTH,
     "also the legacy sequence in real PyTorch (three-way)", NULL},
    {"engine-binary", "PATH", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(target), 0, 0, NULL,
     CAMPAIGN_OPTIONS_FUZZ,
     "the engine's target binary (default: searched; also\n"
     "--target PATH, when PATH is not a target spec)", NULL},
    {"seeds", "DIR", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(seeds), 0, 0, NULL,
     CAMPAIGN_OPTIONS_FUZZ, "seed corpus (default corpus/seed)", NULL},
    {"no-seeds", NULL, CAMPAIGN_OPTIONS_NONE, CAMPAIGN_OPTIONS_AT(seeds), 0, 0, NULL,
     CAMPAIGN_OPTIONS_FUZZ, "no seed corpus: a cold start", NULL},
    {"dict", "FILE", CAMPAIGN_OPTIONS_PATH, CAMPAIGN_OPTIONS_AT(dict), 0, 0, NULL,
     CAMPAIGN_OPTIONS_FUZZ, "dictionary (default fuzz/gmfuzz.dict)", NULL},
    {"no-dict", NULL, CAMPAIGN_OPTIONS_NONE, CAMPAIGN_OPTIONS_AT(dict), 0, 0, NULL,
     CAMPAIGN_OPTIONS_FUZZ, "no dictionary", NULL},
    {"runs", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(runs), 1, UINT64_MAX / 2, NULL,
     CAMPAIGN_OPTIONS_FUZZ, "executions per job, then stop (libFuzzer)", NULL},
    {"seed", "N", CAMPAIGN_OPTIONS_U64, CAMPAIGN_OPTIONS_AT(seed), 1, UINT32_MAX / 2, NULL,
     CAMPAIGN_OPTIONS_BOTH, "engine seed of job 0 (job k: N + k)",
     "generator seed of job 0 (job k: N + k)"},
    {"stop-on-new", NULL, CAMPAIGN_OPTIONS_ON, CAMPAIGN_OPTIONS_AT(stop_on_new), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "end at the first new signature", NULL},
    {"abort-on-failure", NULL, CAMPAIGN_OPTIONS_ON, CAMPAIGN_OPTIONS_AT(abort_on_failure), 0, 0,
     NULL, CAMPAIGN_OPTIONS_FUZZ,
     "the target aborts at each failure (the engine\n"
     "records a crash) and is restarted; default: it\n"
     "saves each signature once and goes on", NULL},
    {"no-minimize", NULL, CAMPAIGN_OPTIONS_OFF, CAMPAIGN_OPTIONS_AT(minimize), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH, "keep the failures as found", NULL},
    {"minimize-time", "S", CAMPAIGN_OPTIONS_SECONDS, CAMPAIGN_OPTIONS_AT(minimize_time_s), 0, 0,
     NULL, CAMPAIGN_OPTIONS_BOTH,
     "the minimization's budget after the campaign\n"
     "(default max(10, 25% of --time)); reproducers it\n"
     "does not reach are saved unminimized",
     "the minimization's budget after the sweep\n"
     "(default max(10, 25% of --time)); reproducers it\n"
     "does not reach are saved unminimized"},
    {"stall-timeout", "S", CAMPAIGN_OPTIONS_SECONDS, CAMPAIGN_OPTIONS_AT(stall_s), 0, 0, NULL,
     CAMPAIGN_OPTIONS_BOTH,
     "restart a job with no output and no CPU time\n"
     "for S seconds, or whose execution count stands\n"
     "still S seconds past its next report (default 60)",
     "restart a job with no output and no CPU time for\n"
     "S seconds, or whose case count stands still that\n"
     "long past its next report (default 60)"},
};
enum { CAMPAIGN_OPTIONS_N = sizeof campaign_options_flags / sizeof campaign_options_flags[0] };

size_t campaign_options_count(void) {
    return CAMPAIGN_OPTIONS_N;
}

const char *campaign_options_name(size_t i, bool *takes_value) {
    *takes_value = i < CAMPAIGN_OPTIONS_N && campaign_options_flags[i].arg != NULL;
    return i < CAMPAIGN_OPTIONS_N ? campaign_options_flags[i].name : NULL;
}

/* The row of `flag` ("--name"), or NULL. */
static const campaign_options_flag *campaign_options_find(const char *flag) {
    for (size_t i = 0; flag != NULL && strncmp(flag, "--", 2) == 0 && i < CAMPAIGN_OPTIONS_N; i++) {
        if (strcmp(flag + 2, campaign_options_flags[i].name) == 0) {
            return &campaign_options_flags[i];
        }
    }
    return NULL;
}

const char *campaign_options_flags_of(size_t field, bool valued, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < CAMPAIGN_OPTIONS_N; i++) {
        const campaign_options_flag *f = &campaign_options_flags[i];
        if (f->kind == CAMPAIGN_OPTIONS_CUSTOM || f->field != field || (f->arg != NULL) != valued) {
            continue;
        }
        int n = snprintf(buf + used, size - used, "%s--%s", used > 0 ? " or " : "", f->name);
        used = n < 0 || (size_t)n >= size - used ? size - 1 : used + (size_t)n;
    }
    return buf;
}

bool campaign_options_takes_value(const char *flag) {
    const campaign_options_flag *f = campaign_options_find(flag);
    return f != NULL && f->arg != NULL;
}

/* Seconds: a positive number, at most a year. */
static bool campaign_options_seconds(const char *text, double *out) {
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !(v > 0.0) || v > 366.0 * 86400.0) {
        return false;
    }
    *out = v;
    return true;
}

/* Whether `value` is one of the '|'-separated words of `words`. */
static bool campaign_options_one_of(const char *words, const char *value) {
    size_t n = strlen(value);
    for (const char *w = words; w != NULL; w = strchr(w, '|') ? strchr(w, '|') + 1 : NULL) {
        if (strncmp(w, value, n) == 0 && (w[n] == '|' || w[n] == '\0')) {
            return n > 0;
        }
    }
    return false;
}

/* A flag that takes a value; false when the value is bad. */
static bool campaign_options_valued(campaign_options *o, const campaign_options_flag *f,
                                    const char *value) {
    void *field = (char *)o + f->field;
    uint64_t n = 0;
    bool ok = false;
    switch (f->kind) {
    case CAMPAIGN_OPTIONS_SECONDS:
        return campaign_options_seconds(value, field);
    case CAMPAIGN_OPTIONS_U64:
        return gm_decimal_parse(value, f->lo, f->hi, field);
    case CAMPAIGN_OPTIONS_INT:
        ok = gm_decimal_parse(value, f->lo, f->hi, &n);
        *(int *)field = (int)n;
        return ok;
    case CAMPAIGN_OPTIONS_PATH:
        *(const char **)field = value;
        return value[0] != '\0';
    case CAMPAIGN_OPTIONS_CHOICE:
        *(const char **)field = value;
        return campaign_options_one_of(f->arg, value);
    case CAMPAIGN_OPTIONS_CUSTOM:
        return f->set(o, value);
    default:
        return false;
    }
}

/* A flag without a value. */
static bool campaign_options_switch(campaign_options *o, const campaign_options_flag *f) {
    void *field = (char *)o + f->field;
    if (f->kind == CAMPAIGN_OPTIONS_NONE) {
        *(const char **)field = "";
    } else {
        *(bool *)field = f->kind == CAMPAIGN_OPTIONS_ON;
    }
    return true;
}

bool campaign_options_set(campaign_options *o, const char *flag, const char *value) {
    const campaign_options_flag *f = campaign_options_find(flag);
    if (f == NULL) {
        return false;
    }
    if (f->arg != NULL) {
        return value != NULL && campaign_options_valued(o, f, value);
    }
    return value == NULL && campaign_options_switch(o, f);
}

/* The help's column of the text after a flag. */
#define CAMPAIGN_OPTIONS_HELP_COLUMN 28

void campaign_options_usage(FILE *to, campaign_help which) {
    for (size_t i = 0; i < CAMPAIGN_OPTIONS_N; i++) {
        const campaign_options_flag *f = &campaign_options_flags[i];
        if ((f->shown & (1u << which)) == 0) {
            continue;
        }
        const char *help = which == CAMPAIGN_HELP_SWEEP && f->sweep_help ? f->sweep_help : f->help;
        int width = fprintf(to, "  --%s%s%s", f->name, f->arg ? " " : "", f->arg ? f->arg : "");
        if (width > CAMPAIGN_OPTIONS_HELP_COLUMN) {
            fprintf(to, "\n%*s", CAMPAIGN_OPTIONS_HELP_COLUMN, "");
        } else {
            fprintf(to, "%*s", width > CAMPAIGN_OPTIONS_HELP_COLUMN - 2
                                   ? 2 : CAMPAIGN_OPTIONS_HELP_COLUMN - width, "");
        }
        for (const char *line = help; line != NULL;) {
            const char *nl = strchr(line, '\n');
            int len = nl != NULL ? (int)(nl - line) : (int)strlen(line);
            fprintf(to, "%.*s\n", len, line);
            line = nl != NULL ? nl + 1 : NULL;
            if (line != NULL) {
                fprintf(to, "%*s", CAMPAIGN_OPTIONS_HELP_COLUMN, "");
            }
        }
    }
}

bool campaign_options_check(const campaign_options *o, char *msg, size_t msg_size) {
    if (!campaign_engine_of(o->engine)->takes_runs && o->runs != 0) {
        char runs[64], time[32];
        snprintf(msg, msg_size, "%s is for libFuzzer; AFL++ campaigns end with %s",
                 campaign_options_flags_of(CAMPAIGN_OPTIONS_AT(runs), true, runs, sizeof runs),
                 campaign_options_flags_of(CAMPAIGN_OPTIONS_AT(time_s), true, time, sizeof time));
        return false;
    }
    return true;
}

bool campaign_options_target(const campaign_options *o, harness_target_spec *out, gm_error *err) {
    if (!harness_target_parse(o->fused != NULL ? o->fused : o->backend, out, err)) {
        return false;
    }
    out->device_cpu = o->target_device != NULL && strcmp(o->target_device, "cpu") == 0;
    if (o->target_timeout_s > 0) {
        out->timeout_s = o->target_timeout_s;
    }
    if (o->target_compile_timeout_s > 0) {
        out->compile_timeout_s = o->target_compile_timeout_s;
    }
    if (o->target_start_timeout_s > 0) {
        out->start_timeout_s = o->target_start_timeout_s;
    }
    return true;
}

double campaign_options_minimize_time(const campaign_options *o) {
    if (o->minimize_time_s > 0.0) {
        return o->minimize_time_s;
    }
    double share = CAMPAIGN_MINIMIZE_SHARE * o->time_s;
    return share > CAMPAIGN_MINIMIZE_MIN_S ? share : CAMPAIGN_MINIMIZE_MIN_S;
}

