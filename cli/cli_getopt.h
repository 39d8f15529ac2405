/* cli_getopt: the scan of one command's argv, on getopt_long, that every
 * gmfuzz command parses its options with.
 *
 * Flags and positional arguments may mix: getopt_long runs in its
 * return-in-order mode ('-' first in the option string), so positional
 * arguments come back where they stand, in order, and argv is never
 * permuted; after "--" every argument is positional. Long options must be
 * spelled whole: a prefix that getopt_long would take ("--comp" for
 * --compare) is an unknown option, as the hand-written parsers had it.
 * `--name=value` is taken as well as `--name value`. */
#ifndef CLI_GETOPT_H
#define CLI_GETOPT_H

#include <getopt.h>
#include <stdbool.h>

enum {
    CLI_GETOPT_ARG = 1,         /* a positional argument (getopt_long's 1) */
    CLI_GETOPT_UNKNOWN = '?',   /* not an option of the command */
    CLI_GETOPT_MISSING = ':',   /* an option that takes a value, with none */
};

typedef struct {
    int code;          /* the option's val in its table, or one of the above */
    const char *flag;  /* "--name" or "-o"; UNKNOWN, MISSING: the argument as
                        * given; ARG: NULL */
    const char *value; /* the option's value or the positional argument; NULL
                        * for a switch */
} cli_getopt_item;

/* Takes one item; false stops the scan (the callback said why). */
typedef bool (*cli_getopt_fn)(void *ctx, const cli_getopt_item *item);

/* Scans argv[1..argc) (argv[0] is the command's name) with the short
 * options `shorts` (getopt's syntax, e.g. "o:h"; "" for none) and the long
 * options `longs` (their `flag` NULL, their `val` the code handed to `fn`),
 * handing every option, positional argument and error to `fn` in order.
 * Starts getopt_long over (optind = 0): commands may parse more than once
 * in a process. False when `fn` stopped the scan. */
bool cli_getopt_scan(int argc, char **argv, const char *shorts, const struct option *longs,
                     cli_getopt_fn fn, void *ctx);

/* Whether argv[1..argc) holds --help or -h before any "--" (a command's
 * help is shown whatever else its command line holds). */
bool cli_getopt_wants_help(int argc, char **argv);

#endif
