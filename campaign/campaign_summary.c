#include "campaign_summary.h"

#include <inttypes.h>
#include <string.h>

#include "campaign_status.h"
#include "report_format.h"
#include "gm_oracle.h"

/* A signature counts as new unless its failure replays as something the
 * user's baseline knows. */
static bool campaign_summary_is_new(const campaign_summary *s, size_t i) {
    return s->repros == NULL || !(s->repros[i].reproduced && s->repros[i].known);
}

size_t campaign_summary_new(const campaign_summary *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->failures->n_sigs; i++) {
        n += campaign_summary_is_new(s, i) ? 1 : 0;
    }
    return n;
}

static void campaign_summary_header(FILE *out, const campaign_summary *s) {
    const campaign_options *o = &s->setup->opt;
    char execs[16], rate[16];
    double secs = s->elapsed_s > 0.0 ? s->elapsed_s : 1e-9;
    report_format_count(s->execs, execs, sizeof execs);
    report_format_count((uint64_t)((double)s->execs / secs), rate, sizeof rate);
    fprintf(out, "gmfuzz fuzz: %s, %s backend, %s comparison%s, %d job%s, %.0f s budget\n",
            campaign_engine_name(o->engine), o->backend, gm_compare_name(o->compare),
            o->strict_baseline ? ", strict baseline" : "", o->jobs, o->jobs == 1 ? "" : "s",
            o->time_s);
    fprintf(out, "  ran %.1f s%s: %" PRIu64 " execs (%s), %s exec/s, coverage %" PRIu64
                 ", corpus %" PRIu64 " units, %u restart%s\n",
            s->elapsed_s, s->interrupted ? " (interrupted)" : "", s->execs, execs, rate,
            s->coverage, s->corpus, s->restarts, s->restarts == 1 ? "" : "s");
    const campaign_target_tally *t = &s->target;
    if (t->crashed + t->hung > 0) {
        fprintf(out, "  target workers restarted: %" PRIu64 " after a crash, %" PRIu64
                     " after a hang\n", t->crashed, t->hung);
    }
    if (t->unreliable_crashed + t->unreliable_hung > 0) {
        fprintf(out, "  unreliable (not again on a fresh worker, not findings): %" PRIu64
                     " crash%s, %" PRIu64 " hang%s, kept in %s/unreliable/\n",
                t->unreliable_crashed, t->unreliable_crashed == 1 ? "" : "es", t->unreliable_hung,
                t->unreliable_hung == 1 ? "" : "s", s->setup->dir);
    }
    if (t->counted_runs > 0) {
        fprintf(out, "  checked %" PRIu64 " input%s; the target answered %" PRIu64 " call%s\n",
                t->checked, t->checked == 1 ? "" : "s", t->answered, t->answered == 1 ? "" : "s");
    }
    if (t->torch_cases > 0) {
        /* three-way: what the torch side costs, against the jobs' own time */
        double torch_s = (double)t->torch_ms / 1000.0, job_s = (double)t->job_ms / 1000.0;
        double start_s = (double)t->torch_start_ms / 1000.0;
        double rest_s = job_s > torch_s + start_s ? job_s - torch_s - start_s : 0.0;
        fprintf(out, "  torch reference: %" PRIu64 " cases in %" PRIu64 " calls, %.0f cases/s "
                     "of its time; of the jobs' %.1f s: torch %.1f s (%.0f%%), its start-up "
                     "%.1f s, the rest %.1f s (the C reference, the fused side, triage, the "
                     "engine)\n",
                t->torch_cases, t->torch_calls,
                torch_s > 0.0 ? (double)t->torch_cases / torch_s : 0.0, job_s, torch_s,
                job_s > 0.0 ? 100.0 * torch_s / job_s : 0.0, start_s, rest_s);
    }
    if (s->in_flight != NULL) {
        fprintf(out, "  at the end: %s\n", s->in_flight);
    }
    if (s->left_behind > 0) {
        fprintf(out, "  left behind: %u process%s still running below the campaign at its end, "
                     "killed by the driver\n",
                s->left_behind, s->left_behind == 1 ? "" : "es");
    }
    if (t->compiles + t->loads > 0) {
        fprintf(out, "  target JIT: %" PRIu64 " kernels compiled, %" PRIu64
                     " loaded from its cache, %.1f s\n",
                t->compiles, t->loads, (double)t->jit_ms / 1000.0);
    }
    if (t->classes + t->held > 0) {
        uint64_t on_target = s->execs > t->held ? s->execs - t->held : 0;
        fprintf(out, "  by specialization class: %" PRIu64 " classes met; %" PRIu64
                     " inputs checked on the C side only (their class not admitted), %" PRIu64
                     " on the target too (%.0f/s)\n",
                t->classes, t->held, on_target, (double)on_target / secs);
    }
}

/* ---- buckets: the signatures are grouped by bucket (campaign_failures_sort) */

/* The end of the bucket that starts at signature `i`. */
static size_t campaign_summary_bucket_end(const campaign_failures *f, size_t i) {
    size_t j = i + 1;
    while (j < f->n_sigs && strcmp(f->sigs[j].bucket, f->sigs[i].bucket) == 0) {
        j++;
    }
    return j;
}

/* Whether any signature of the bucket [i, end) is new. */
static bool campaign_summary_bucket_is_new(const campaign_summary *s, size_t i, size_t end) {
    for (size_t k = i; k < end; k++) {
        if (campaign_summary_is_new(s, k)) {
            return true;
        }
    }
    return false;
}

size_t campaign_summary_new_buckets(const campaign_summary *s, size_t *all) {
    const campaign_failures *f = s->failures;
    size_t fresh = 0, n = 0;
    for (size_t i = 0; i < f->n_sigs; i = campaign_summary_bucket_end(f, i)) {
        n++;
        fresh += campaign_summary_bucket_is_new(s, i, campaign_summary_bucket_end(f, i)) ? 1 : 0;
    }
    if (all != NULL) {
        *all = n;
    }
    return fresh;
}

/* The bucket's smallest reproducer: the fewest rows, then the first. */
static const char *campaign_summary_bucket_repro(const campaign_summary *s, size_t i, size_t end,
                                                 size_t *bs) {
    const char *best = NULL;
    for (size_t k = i; s->repros != NULL && k < end; k++) {
        const campaign_repro *r = &s->repros[k];
        if (r->path[0] != '\0' && (best == NULL || r->bs_final < *bs)) {
            best = r->path;
            *bs = r->bs_final;
        }
    }
    return best;
}

/* "  bucket <key>: N signatures, M inputs[ (known ...)]; repro: <path> (bs B)" */
static void campaign_summary_bucket(FILE *out, const campaign_summary *s, size_t i, size_t end) {
    const campaign_failures *f = s->failures;
    size_t inputs = 0, bs = 0;
    for (size_t k = i; k < end; k++) {
        inputs += f->sigs[k].count;
    }
    const char *repro = campaign_summary_bucket_repro(s, i, end, &bs);
    fprintf(out, "  bucket %s: %zu signature%s, %zu input%s%s",
            f->sigs[i].bucket[0] ? f->sigs[i].bucket : "-",
            end - i, end - i == 1 ? "" : "s", inputs, inputs == 1 ? "" : "s",
            campaign_summary_bucket_is_new(s, i, end) ? "" : " (known to the baseline)");
    if (repro != NULL) {
        fprintf(out, "; repro: %s (bs %zu)\n", repro, bs);
    } else {
        fprintf(out, "; failure: %s\n", f->sigs[i].smallest);
    }
}

static void campaign_summary_buckets(FILE *out, const campaign_summary *s, size_t max_buckets) {
    const campaign_failures *f = s->failures;
    size_t all = 0, fresh = campaign_summary_new_buckets(s, &all), shown = 0;
    fprintf(out, "  found %zu new bucket%s (%zu of %zu buckets; a bucket is one root cause):\n",
            fresh, fresh == 1 ? "" : "s", fresh, all);
    for (size_t i = 0; i < f->n_sigs; i = campaign_summary_bucket_end(f, i)) {
        if (max_buckets > 0 && shown == max_buckets) {
            fprintf(out, "  ... and %zu more bucket%s: all of them are in %s/summary.txt\n",
                    all - shown, all - shown == 1 ? "" : "s", s->setup->dir);
            break;
        }
        campaign_summary_bucket(out, s, i, campaign_summary_bucket_end(f, i));
        shown++;
    }
}

static void campaign_summary_signature(FILE *out, const campaign_summary *s, size_t i) {
    const campaign_signature *sig = &s->failures->sigs[i];
    fprintf(out, "  signature %s: %zu input%s, first after %.2f s and %" PRIu64 " execs%s\n",
            sig->signature, sig->count, sig->count == 1 ? "" : "s", sig->first_s,
            sig->first_execs, campaign_summary_is_new(s, i) ? "" : " (known to the baseline)");
    fprintf(out, "    bucket: %s\n", sig->bucket[0] ? sig->bucket : "-");
    if (s->repros == NULL) {
        fprintf(out, "    failure: %s\n", sig->smallest);
        return;
    }
    const campaign_repro *r = &s->repros[i];
    if (r->path[0] != '\0') {
        fprintf(out, "    repro: %s (bs %zu -> %zu, %s, %zu runs, %.2f s)\n", r->path,
                r->bs_found, r->bs_final,
                r->minimized     ? "minimized"
                : r->out_of_time ? (r->runs > 0 ? "partly minimized: out of time"
                                                : "not minimized: out of time")
                                 : "not minimized",
                r->runs,
                r->seconds);
    }
    if (r->note[0] != '\0') {
        fprintf(out, "    note: %s (kept: %s)\n", r->note, sig->smallest);
    }
}

/* Why jobs stopped during the campaign (campaign.json has them all). */
static void campaign_summary_ends(FILE *out, const campaign_summary *s) {
    enum { SHOWN = 5 };
    for (size_t i = 0; i < s->n_ends && i < SHOWN; i++) {
        const campaign_run_end *e = &s->ends[i];
        fprintf(out, "  %s run %u ended at %.1f s: %s%s\n", e->job, e->run, e->at_s, e->cause,
                e->restarted ? ", restarted" : "");
    }
    if (s->n_ends > SHOWN) {
        fprintf(out, "  (%zu more job ends in campaign.json)\n", s->n_ends - SHOWN);
    }
}

/* Reproducers the minimization's budget did not reach (or cut short). */
static void campaign_summary_out_of_time(FILE *out, const campaign_summary *s) {
    size_t whole = 0, part = 0;
    for (size_t i = 0; s->repros != NULL && i < s->failures->n_sigs; i++) {
        const campaign_repro *r = &s->repros[i];
        whole += r->out_of_time && r->runs == 0 ? 1 : 0;
        part += r->out_of_time && r->runs > 0 ? 1 : 0;
    }
    if (whole + part > 0) {
        fprintf(out, "  minimization: %g s budget (--minimize-time) spent: %zu reproducer%s "
                     "saved unminimized, %zu minimized part of the way\n",
                campaign_options_minimize_time(&s->setup->opt), whole, whole == 1 ? "" : "s",
                part);
    }
}

void campaign_summary_print(FILE *out, const campaign_summary *s, size_t max_signatures) {
    const campaign_failures *f = s->failures;
    size_t fresh = campaign_summary_new(s);
    campaign_summary_header(out, s);
    if (f->n_sigs == 0 && s->problem != NULL) {
        /* Not a clean bill: the problem below says what was not checked. */
        fprintf(out, "  nothing new in what was checked (see the problem below)\n");
    } else if (f->n_sigs == 0) {
        fprintf(out, "  found nothing new\n");
    } else {
        campaign_summary_buckets(out, s, max_signatures);
        fprintf(out, "  found %zu new signature%s (%zu of %zu signatures; %zu failing inputs):\n",
                fresh, fresh == 1 ? "" : "s", fresh, f->n_sigs, f->files - f->unreadable);
    }
    size_t shown = max_signatures > 0 && max_signatures < f->n_sigs ? max_signatures : f->n_sigs;
    for (size_t i = 0; i < shown; i++) {
        campaign_summary_signature(out, s, i);
    }
    if (shown < f->n_sigs) {
        fprintf(out, "  ... and %zu more signature%s: all of them are in %s/summary.txt\n",
                f->n_sigs - shown, f->n_sigs - shown == 1 ? "" : "s", s->setup->dir);
    }
    campaign_summary_out_of_time(out, s);
    if (f->unreadable > 0) {
        fprintf(out, "  %zu failure file%s could not be read; last: %s\n", f->unreadable,
                f->unreadable == 1 ? "" : "s", f->last_problem);
    }
    if (s->unsaved_crashes > 0) {
        fprintf(out, "  %u run%s of the target failed without saving a failure (inputs in "
                     "%s/artifacts/); last: %s\n",
                s->unsaved_crashes, s->unsaved_crashes == 1 ? "" : "s", s->setup->dir,
                s->crash_note ? s->crash_note : "");
    }
    campaign_summary_ends(out, s);
    if (s->problem != NULL) {
        fprintf(out, "  problem: %s\n", s->problem);
    }
    fprintf(out, "  output: %s (repros/, failures/, corpus/, logs/, summary.txt)\n",
            s->setup->dir);
    if (s->report != NULL) {
        fprintf(out, "  report: %s (and report.md, summary.json, junit.xml beside it)\n",
                s->report);
    }
    fprintf(out, "  exit %d: %s\n", s->exit_code,
            s->exit_code == CAMPAIGN_EXIT_FINDING   ? "new signatures found"
            : s->exit_code == CAMPAIGN_EXIT_OK      ? "nothing new"
            : s->exit_code == CAMPAIGN_EXIT_UNSAVED ? "a finding could not be saved"
                                                    : "the campaign could not run properly");
}
