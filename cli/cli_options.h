/* cli_options: the flags that several gmfuzz commands share, and the exit
 * codes of the command-line tool. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>

#include "cli_getopt.h"
#include "harness.h"
#include "gm_json.h"
#include "gm_oracle.h"

/* Exit codes (documented in `gmfuzz --help` and the README). */
enum {
    CLI_EXIT_OK = 0,       /* run: match; replay: every document passed */
    CLI_EXIT_FINDING = 1,  /* run: any other verdict; replay: a document failed */
    CLI_EXIT_USAGE = 2,    /* bad flags or arguments */
    CLI_EXIT_INPUT = 3,    /* run: the case could not be read or is malformed */
    CLI_EXIT_BACKEND = 4,  /* the backend is unavailable or failed */
    CLI_EXIT_NO_DOCUMENTS = 5, /* replay: no document found (pytest's 5: none collected) */
    CLI_EXIT_FIXED = 6,    /* retest: a reproducer no longer fails (and none changed) */
};

typedef struct {
    harness_target_spec target;   /* --target, --backend, --target-device, --target-timeout */
    bool target_given;       /* false: a reproducer's recorded target, else builtin:cpu */
    const char *reference;   /* --reference python:...: a three-way run; NULL: none */
    bool reference_cuda;     /* --reference-device cuda */
    gm_compare compare;
    bool compare_given;      /* --compare was given */
    bool json;
    gm_limits limits;
    const char **paths; /* positional arguments, in order */
    int n_paths;
} cli_options;

/* A command's own options, scanned with the shared ones (one table, one
 * getopt_long scan). `longs` ends with a zero entry; their codes are
 * below CLI_OPTIONS_SHARED. `take` gets each of them, and every unknown
 * option or missing value first: it returns 1 taken, 0 a usage error (it
 * said why), -1 not its own (the shared wording then). */
enum { CLI_OPTIONS_SHARED = 256 };
typedef struct {
    const struct option *longs;
    const char *shorts;
    int (*take)(void *ctx, const cli_getopt_item *item);
    void *ctx;
} cli_options_own;

/* Parses argv[1..argc) (argv[0] is the command's name): the shared flags,
 * `own`'s (NULL: none) and the positional arguments, in order, into
 * o->paths (`paths` must hold argc entries). `allow_json` enables --json.
 * Prints a message and returns false on a usage error. */
bool cli_options_parse(int argc, char **argv, bool allow_json, const cli_options_own *own,
                       cli_options *o, const char **paths);

/* The frame of a command's main: with --help (or -h) before any "--" it
 * prints `usage` and returns 0; else it returns what `body` does, given
 * room for argc + 1 positional arguments (`paths`, for cli_options_parse),
 * which it frees afterwards (exit 4 when there is no memory for it). */
typedef int (*cli_options_body)(int argc, char **argv, const char **paths);
int cli_options_main(int argc, char **argv, const char *usage, cli_options_body body);

/* Whether argv[1..argc) asks for --help (or -h) before any "--". */
bool cli_options_wants_help(int argc, char **argv);

/* Opens the chosen target, or prints why not. */
bool cli_options_open_backend(const cli_options *o, harness_backend **b);

/* The target for `doc`: --target when given, else the external target a
 * reproducer records (docs/TARGETS.md), else builtin:cpu. `*b` is reused
 * when it already runs that target, else closed and reopened. */
bool cli_options_backend_for(const cli_options *o, const gm_doc *doc, harness_backend **b);

/* The torch reference of a three-way run (--reference), or NULL; false
 * (printed why) when it cannot start. */
bool cli_options_open_reference(const cli_options *o, harness_run_legacy **out);

/* One line of the help texts, for the commands that take these flags. */
#define CLI_OPTIONS_TARGET_HELP                                                               \
    "  --target T              builtin:cpu|cuda|cuda-graph|cuda-raw, lib:PATH.so or\n"        \
    "                          python:[MODULE][:FUNCTION] (docs/TARGETS.md; default: a\n"     \
    "                          reproducer's recorded target, else builtin:cpu)\n"             \
    "  --backend B             the same as --target builtin:B\n"                              \
    "  --target-device D       cuda (default) or cpu: where a python: target's tensors live\n" \
    "  --target-timeout S      one call's execution limit for lib: and python: targets\n"   \
    "                          (default 10)\n"                                                \
    "  --target-compile-timeout S  a compile or load a python: target reports (default 300)\n" \
    "  --target-cache DIR      the target JIT's on-disk cache (TRITON_CACHE_DIR)\n"          \
    "  --reference python:[MODULE][:FUNCTION]\n"                                              \
    "                          also run the legacy sequence in real PyTorch (three-way)\n"    \
    "  --reference-device D    cpu (default) or cuda\n"

#endif
