/* harness_replay: runs a document again and checks it against what it records.
 *
 *   case       passes when reference and fused match at `level`;
 *   vector     the reference must raise iff the real legacy path raised and
 *              otherwise equal its buffers exactly; the fused kernel must
 *              equal the real fused buffers exactly (and overrun iff they
 *              record an error);
 *   repro      at the level it records: the same verdict (status, buffers,
 *              first difference) and the same outputs on both sides.
 */
#ifndef HARNESS_REPLAY_H
#define HARNESS_REPLAY_H

#include <stdbool.h>

#include "harness_backend.h"
#include "gm_json.h"
#include "gm_oracle.h"
#include "harness_run.h"

typedef struct {
    bool passed;
    char message[768]; /* why it failed; empty when it passed */
} harness_replay_outcome;

/* False only when a side could not run (err set); a failed check is a
 * successful replay with passed == false. */
bool harness_replay_doc(harness_backend *b, const gm_doc *doc, gm_compare case_level,
                   harness_replay_outcome *out, gm_error *err);

/* The same, with the torch legacy sequence beside the C reference
 * (`legacy` may be NULL): a drift fails the document. */
bool harness_replay_doc3(harness_backend *b, harness_run_legacy *legacy, const gm_doc *doc, gm_compare case_level,
                    harness_replay_outcome *out, gm_error *err);

#endif
