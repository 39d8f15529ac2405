/* report_view: what every report of one run folder needs beyond the folder
 * itself, worked out once: the order signatures are listed in (the new
 * ones first), the counts of the verdict, and the links to reproducers,
 * relative to the folder the reports are written to. */
#ifndef REPORT_VIEW_H
#define REPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "gm_error.h"
#include "repro.h"

typedef struct {
    const repro_rundir *run;
    size_t *order;      /* indices into run->sigs: new ones, then known ones,
                           each group in the folder's order */
    size_t n_new;       /* signatures the baseline does not know */
    size_t n_triaged;   /* known as "bug" or "wontfix": a person looked */
    char **links;       /* like run->sigs: the reproducer (else the smallest
                           failing input) relative to the reports' folder;
                           NULL when there is no file */
    char *name;         /* the folder's last path component, for titles */
    size_t *by_bucket;  /* positions of `order`, bucket by bucket (new buckets first) */
    char *coverage;     /* the folder's source coverage (gmfuzz coverage):
                           coverage/html/index.html relative to the reports'
                           folder; NULL when there is none */
    char *coverage_summary; /* its coverage/summary.txt, likewise */
} report_view;

bool report_view_init(report_view *v, const repro_rundir *r, const char *out_dir, gm_error *err);
void report_view_free(report_view *v);

/* The signature at position `k` of the listing order. */
const repro_rundir_signature *report_view_sig(const report_view *v, size_t k);
/* Its link (NULL: none). */
const char *report_view_link(const report_view *v, size_t k);

/* The position of `order` that comes k-th when the signatures are listed
 * bucket by bucket (the order itself when the folder has no buckets). */
size_t report_view_by_bucket(const report_view *v, size_t k);

/* The link of signature `i` of run->sigs (NULL: none). */
const char *report_view_link_of(const report_view *v, size_t i);

/* Whether a signature is known as "bug" or "wontfix". */
bool report_view_is_triaged(const repro_rundir_signature *s);

#endif
