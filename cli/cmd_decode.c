#include "cmd_decode.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "cli_options.h"
#include "gm_json.h"

static const char cmd_decode_usage[] =
    "usage: gmfuzz decode BYTES [-o CASE.json]\n"
    "The case that the fuzzer input BYTES decodes to (fuzz/fuzz_decode.h: every byte\n"
    "string decodes), as a gmfuzz-case-v1 document: to CASE.json, or to stdout.\n"
    "BYTES is what libFuzzer, AFL++ or ClusterFuzzLite saved (crash-*, id:*, a corpus\n"
    "file). Exit 0 when written, 2 on a usage error, 3 when BYTES cannot be read.\n"
    "  -o, --output CASE.json  where the case goes (default stdout)\n"
    "  -h, --help              this text\n";

static bool cmd_decode_write(const gm_case *c, const char *out, gm_error *err) {
    cJSON *root = gm_json_case(c);
    if (root == NULL) {
        return gm_error_set(err, GM_ERR_MEMORY, "out of memory writing the case");
    }
    bool ok = true;
    if (out != NULL) {
        ok = gm_json_write_file(out, root, err);
    } else {
        char *text = cJSON_Print(root);
        ok = text != NULL && fputs(text, stdout) >= 0 && fputc('\n', stdout) != EOF;
        free(text);
        if (!ok) {
            gm_error_set(err, GM_ERR_IO, "cannot write the case to stdout");
        }
    }
    cJSON_Delete(root);
    return ok;
}

int cmd_decode_main(int argc, char **argv) {
    static const struct option longs[] = {{"output", required_argument, NULL, 'o'},
                                          {"help", no_argument, NULL, 'h'},
                                          {NULL, 0, NULL, 0}};
    const char *out = NULL;
    int c;
    optind = 0; /* glibc starts over; permuting: flags may follow paths */
    while ((c = getopt_long(argc, argv, "o:h", longs, NULL)) != -1) {
        if (c == 'h') {
            fputs(cmd_decode_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (c != 'o') {
            fputs(cmd_decode_usage, stderr);
            return CLI_EXIT_USAGE;
        }
        out = optarg;
    }
    if (optind + 1 != argc) {
        fputs(cmd_decode_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    gm_error err = {0};
    size_t size = 0;
    uint8_t *bytes = fuzz_casefile_slurp(argv[optind], &size, &err);
    bool read = bytes != NULL;
    gm_case k;
    gm_case_init(&k);
    bool decoded = read && fuzz_decode(bytes, size, &k, &err);
    bool written = decoded && cmd_decode_write(&k, out, &err);
    free(bytes);
    gm_case_free(&k);
    if (!written) {
        fprintf(stderr, "gmfuzz decode: %s\n", err.msg);
        return read ? CLI_EXIT_BACKEND : CLI_EXIT_INPUT;
    }
    return CLI_EXIT_OK;
}
