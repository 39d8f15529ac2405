/* gmfuzz vector REPRO.json -o corpus/vectors/NAME.json [reader limits]
 *
 * Turns a three-way reproducer (a drift of the C reference from real
 * PyTorch, found with --reference python:...) into a conformance vector:
 * the case with PyTorch's legacy outputs (export/export.h). Kept under
 * corpus/vectors/, it is replayed by ctest (vectors.corpus), so that CI
 * holds the C reference to PyTorch on that case from then on.
 *
 * Exit codes: 0 written; 2 usage; 3 the input cannot be read or is not a
 * three-way reproducer; 4 the output cannot be written.
 */
#include "cmd_vector.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "export.h"

static const char cmd_vector_usage[] =
    "usage: gmfuzz vector REPRO.json -o corpus/vectors/NAME.json\n"
    "  writes a three-way reproducer (one with \"torch_reference\": a campaign or\n"
    "  replay with --reference python: wrote it) as a conformance vector: its case,\n"
    "  real PyTorch's legacy outputs as \"legacy\", its fused buffers as \"fused\";\n"
    "  `gmfuzz replay` of the vector then fails wherever the C reference leaves\n"
    "  PyTorch (corpus/vectors/ is replayed by ctest)\n"
    "  -o, --output FILE       the vector to write\n"
    "  --max-file-size BYTES, --max-elements N, --max-bs N, --max-width N\n"
    "                          reader limits (docs/FORMATS.md)\n"
    "  -h, --help              this text\n"
    "exit codes: 0 written, 2 usage, 3 unreadable input or not a three-way\n"
    "reproducer, 4 the output cannot be written\n";

static int cmd_vector_take(void *ctx, const cli_getopt_item *item) {
    const char **output = ctx;
    if (item->code == CLI_GETOPT_MISSING &&
        (strcmp(item->flag, "-o") == 0 || strcmp(item->flag, "--output") == 0)) {
        fprintf(stderr, "gmfuzz vector: %s needs a file\n", item->flag);
        return 0;
    }
    if (item->code != 'o') {
        return -1;
    }
    *output = item->value;
    return 1;
}

static const struct option cmd_vector_longs[] = {
    {"output", required_argument, NULL, 'o'},
    {NULL, 0, NULL, 0},
};

static int cmd_vector_run(const cli_options *o, const char *output) {
    gm_doc doc;
    gm_error err = {0};
    int rc = CLI_EXIT_INPUT;
    if (!gm_json_read_file(o->paths[0], &o->limits, &doc, &err)) {
        fprintf(stderr, "gmfuzz vector: %s\n", err.msg);
    } else if (doc.kind != GM_DOC_REPRO || !doc.repro.has_torch) {
        export_vector_write(output, &doc, &err); /* says why */
        fprintf(stderr, "gmfuzz vector: %s: %s\n", o->paths[0], err.msg);
    } else if (!export_vector_write(output, &doc, &err)) {
        fprintf(stderr, "gmfuzz vector: %s\n", err.msg);
        rc = CLI_EXIT_BACKEND;
    } else {
        printf("wrote %s (%s; legacy: real PyTorch)\n", output, doc.repro.signature);
        rc = CLI_EXIT_OK;
    }
    gm_doc_free(&doc);
    return rc;
}

int cmd_vector_main(int argc, char **argv) {
    if (cli_options_wants_help(argc, argv)) {
        fputs(cmd_vector_usage, stdout);
        return CLI_EXIT_OK;
    }
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    const char *output = NULL;
    cli_options o;
    memset(&o, 0, sizeof o);
    cli_options_own own = {cmd_vector_longs, "o:", cmd_vector_take, &output};
    int rc = CLI_EXIT_USAGE;
    if (paths == NULL) {
        rc = CLI_EXIT_BACKEND;
    } else if (cli_options_parse(argc, argv, false, &own, &o, paths)) {
        if (o.n_paths != 1 || output == NULL) {
            fprintf(stderr, "gmfuzz vector: takes one REPRO.json and -o NAME.json\n");
        } else {
            rc = cmd_vector_run(&o, output);
        }
    }
    free(paths);
    return rc;
}
