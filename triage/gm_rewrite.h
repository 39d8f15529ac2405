/* gm_rewrite: a reproducer run again and written again, byte for byte.
 *
 * A reproducer records what one build computed, and the regression corpus
 * (corpus/regress/) relies on that record being stable: the same build
 * must write the very same bytes for it. gm_rewrite_render re-runs the case
 * at the level the reproducer records, classifies the run, and builds the
 * document gm_repro_write would write for it, keeping as recorded the
 * fields that say where the reproducer came from (backend, found,
 * minimized, tool_version); the outputs, the verdict, the classes and the
 * signature come from the new run. gm_rewrite_check compares that text
 * with the file's bytes and names the first difference: its byte offset
 * and the JSON field that holds it.
 */
#ifndef GM_REWRITE_H
#define GM_REWRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"
#include "gm_error.h"
#include "gm_json.h"

typedef struct {
    bool same;          /* the rewrite is the file, byte for byte */
    char message[768];  /* where they first differ; empty when same */
} gm_rewrite_outcome;

/* The bytes a rewrite of reproducer `doc` (run on `b`) gives: the document
 * as gm_json_write_file lays it out (unformatted, one trailing newline).
 * *text is malloc'd, NUL-terminated, *len bytes. */
bool gm_rewrite_render(harness_backend *b, const gm_doc *doc, char **text, size_t *len,
                       gm_error *err);

/* Compares the file at `path` (already read into `doc`, a reproducer) with
 * its rewrite. False only when the file or a run failed (err set); a
 * rewrite that differs is a success with out->same == false. */
bool gm_rewrite_check(harness_backend *b, const char *path, const gm_doc *doc, const gm_limits *lim,
                      gm_rewrite_outcome *out, gm_error *err);

#endif
