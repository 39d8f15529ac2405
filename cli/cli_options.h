/* cli_options: the flags that several gmfuzz commands share, and the exit
 * codes of the command-line tool. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stdbool.h>

#include "gm_backend.h"
#include "gm_json.h"
#include "gm_oracle.h"

/* Exit codes (documented in `gmfuzz --help` and the README). */
enum {
    CLI_EXIT_OK = 0,       /* run: match; replay: every document passed */
    CLI_EXIT_FINDING = 1,  /* run: any other verdict; replay: a document failed */
    CLI_EXIT_USAGE = 2,    /* bad flags or arguments */
    CLI_EXIT_INPUT = 3,    /* run: the case could not be read or is malformed */
    CLI_EXIT_BACKEND = 4,  /* the backend is unavailable or failed */
};

typedef struct {
    gm_backend_kind backend;
    gm_compare compare;
    bool json;
    gm_limits limits;
    const char **paths; /* positional arguments, in order */
    int n_paths;
} cli_options;

/* Parses argv[first..argc); prints a message and returns false on a bad
 * flag. `allow_json` enables --json. `paths` must hold argc entries. */
bool cli_options_parse(int argc, char **argv, int first, bool allow_json, cli_options *o,
                       const char **paths);

/* Opens the chosen backend, or prints why not. */
bool cli_options_open_backend(const cli_options *o, gm_backend **b);

#endif
