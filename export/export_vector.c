/* export_vector: a drift reproducer as a conformance vector (export.h). The
 * vector holds what real PyTorch's legacy sequence did, so that replaying
 * it (harness_replay.c, "vector") holds the C reference to PyTorch from
 * then on, two-way, without a torch worker in the loop.
 */
#include "export.h"

#include <stdlib.h>

/* What the fused side must leave: what the reproducer recorded, or, for one
 * found on an external target, gmfuzz's own fused model on the host (the
 * vector is about the references; the target is not run again). */
static bool export_vector_fused(const gm_doc *doc, gm_outputs *model, const gm_outputs **fused,
                                gm_error *err) {
    *fused = &doc->fused;
    if (!doc->repro.has_target) {
        return true;
    }
    harness_backend *cpu = NULL;
    bool ok = harness_backend_open(HARNESS_BACKEND_CPU, &cpu, err) &&
              harness_backend_run(cpu, &doc->c, model, err);
    harness_backend_close(cpu);
    *fused = model;
    return ok;
}

bool export_vector_write(const char *path, const gm_doc *doc, gm_error *err) {
    if (doc->kind != GM_DOC_REPRO || !doc->repro.has_torch) {
        return gm_error_set(err, GM_ERR_FORMAT,
                            "not a three-way reproducer: it has no \"torch_reference\" (a "
                            "campaign or replay with --reference python: writes one)");
    }
    gm_outputs model;
    gm_outputs_init(&model);
    const gm_outputs *fused = NULL;
    bool ok = export_vector_fused(doc, &model, &fused, err);
    cJSON *root = ok ? gm_json_vector(&doc->c, &doc->repro.torch, fused) : NULL;
    if (ok && root == NULL) {
        ok = gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory building the vector", path);
    }
    ok = ok && gm_json_write_file(path, root, err);
    cJSON_Delete(root);
    gm_outputs_free(&model);
    return ok;
}
