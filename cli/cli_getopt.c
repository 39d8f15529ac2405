#include "cli_getopt.h"

#include <stdio.h>
#include <string.h>

/* Whether `arg` is "--name" or "--name=...", not a prefix of it. */
static bool cli_getopt_whole(const char *arg, const char *name) {
    size_t len = strlen(name);
    return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, len) == 0 &&
           (arg[2 + len] == '\0' || arg[2 + len] == '=');
}

/* The item of getopt_long's answer `c` for the argument argv[at]; `flag`
 * holds the name it gives. */
static cli_getopt_item cli_getopt_item_of(int c, int index, char **argv, int at,
                                          const struct option *longs, char *flag,
                                          size_t flag_size) {
    cli_getopt_item item = {c, argv[at], optarg};
    if (c == CLI_GETOPT_ARG) {
        item.flag = NULL;
    } else if (c == CLI_GETOPT_UNKNOWN || c == CLI_GETOPT_MISSING) {
        item.value = NULL;
    } else if (index >= 0 && !cli_getopt_whole(argv[at], longs[index].name)) {
        item = (cli_getopt_item){CLI_GETOPT_UNKNOWN, argv[at], NULL};
    } else if (index >= 0) {
        snprintf(flag, flag_size, "--%s", longs[index].name);
        item.flag = flag;
    } else {
        snprintf(flag, flag_size, "-%c", c);
        item.flag = flag;
    }
    return item;
}

bool cli_getopt_scan(int argc, char **argv, const char *shorts, const struct option *longs,
                     cli_getopt_fn fn, void *ctx) {
    static const struct option none[] = {{NULL, 0, NULL, 0}};
    char optstring[64];
    snprintf(optstring, sizeof optstring, "-:%s", shorts != NULL ? shorts : "");
    opterr = 0; /* the callback words the errors */
    optind = 0; /* 0: glibc starts over, whatever an earlier scan left */
    for (;;) {
        int at = optind == 0 ? 1 : optind, index = -1;
        int c = getopt_long(argc, argv, optstring, longs != NULL ? longs : none, &index);
        if (c == -1) {
            break;
        }
        char flag[64];
        cli_getopt_item item = cli_getopt_item_of(c, index, argv, at, longs, flag, sizeof flag);
        if (!fn(ctx, &item)) {
            return false;
        }
    }
    for (int i = optind; i < argc; i++) { /* after "--" */
        cli_getopt_item item = {CLI_GETOPT_ARG, NULL, argv[i]};
        if (!fn(ctx, &item)) {
            return false;
        }
    }
    return true;
}

bool cli_getopt_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return true;
        }
    }
    return false;
}
