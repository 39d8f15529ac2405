#include "report_junit.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_escape.h"
#include "report_format.h"

/* The campaign's infrastructure trouble, or NULL when it ran properly. */
static const char *report_junit_problem(const repro_rundir *r) {
    if (!r->campaign.present) {
        return NULL;
    }
    if (r->campaign.problem != NULL) {
        return r->campaign.problem;
    }
    if (r->campaign.exit_code < 0) {
        return "the campaign never finished: it was killed, or is still running";
    }
    return NULL;
}

static double report_junit_time(const repro_rundir *r) {
    return r->campaign.present && r->campaign.elapsed_s > 0.0 ? r->campaign.elapsed_s : 0.0;
}

/* tests= failures= errors= skipped= time= */
static void report_junit_counts(const report_view *v, report_text *out) {
    const repro_rundir *r = v->run;
    report_text_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"%zu\" "
                            "time=\"%.3f\"",
                       r->n_sigs + 1, v->n_new, report_junit_problem(r) != NULL ? 1 : 0,
                       v->n_triaged, report_junit_time(r));
}

static void report_junit_property(report_text *out, const char *name, const char *value) {
    report_text_printf(out, "      <property name=\"%s\" value=\"", name);
    report_escape_xml_attr(out, value);
    report_text_put(out, "\"/>\n");
}

static void report_junit_properties(const repro_rundir *r, report_text *out) {
    const repro_rundir_campaign *c = &r->campaign;
    char jobs[16], code[16];
    report_text_put(out, "    <properties>\n");
    report_junit_property(out, "folder", r->path != NULL ? r->path : "");
    if (c->present) {
        snprintf(jobs, sizeof jobs, "%d", c->jobs);
        snprintf(code, sizeof code, "%d", c->exit_code);
        report_junit_property(out, "engine", c->engine);
        report_junit_property(out, "backend", c->backend);
        report_junit_property(out, "compare", c->compare);
        report_junit_property(out, "jobs", jobs);
        report_junit_property(out, "strict_baseline", c->strict_baseline ? "true" : "false");
        report_junit_property(out, "baseline", c->baseline != NULL ? c->baseline : "");
        report_junit_property(out, "exit_code", code);
    }
    report_text_put(out, "    </properties>\n");
}

/* The testcase that stands for the run itself. */
static void report_junit_run_case(const report_view *v, report_text *out) {
    const repro_rundir *r = v->run;
    const char *problem = report_junit_problem(r);
    report_text_printf(out, "    <testcase classname=\"gmfuzz.campaign\" name=\"%s\" time=\"%.3f\"",
                       r->is_campaign ? "campaign" : "reproducers", report_junit_time(r));
    if (problem == NULL && r->unreadable == 0) {
        report_text_put(out, "/>\n");
        return;
    }
    report_text_put(out, ">\n");
    if (problem != NULL) {
        report_text_put(out, "      <error message=\"");
        report_escape_xml_attr(out, problem);
        report_text_put(out, "\" type=\"infrastructure\">");
        report_escape_xml(out, problem);
        report_text_put(out, "</error>\n");
    }
    if (r->unreadable > 0) {
        report_text_printf(out, "      <system-out>%zu file(s) could not be read as reproducers; "
                                "last: ", r->unreadable);
        report_escape_xml(out, r->last_problem);
        report_text_put(out, "</system-out>\n");
    }
    report_text_put(out, "    </testcase>\n");
}

static void report_junit_failure(const report_view *v, size_t k, report_text *out) {
    const repro_rundir_signature *s = report_view_sig(v, k);
    const char *link = report_view_link(v, k);
    char what[256];
    report_format_finding(s, what, sizeof what);
    report_text_put(out, "      <failure message=\"new signature ");
    report_escape_xml_attr(out, s->finding.signature);
    report_text_put(out, ": ");
    report_escape_xml_attr(out, what);
    report_text_put(out, "\" type=\"new_signature\">");
    if (v->run->n_buckets > 0) {
        report_text_put(out, "bucket: ");
        report_escape_xml(out, v->run->buckets[s->bucket].key);
        report_text_put(out, "\n");
    }
    report_text_put(out, "reproducer: ");
    report_escape_xml(out, link != NULL ? link : "none");
    report_text_put(out, "\nfirst difference: ");
    report_escape_xml(out, what);
    report_text_printf(out, "\nfailing inputs: %zu, first seen ", s->count);
    report_escape_xml(out, s->first_seen[0] ? s->first_seen : "?");
    report_text_printf(out, " after %" PRIu64 " execs\nreplay: gmfuzz replay ", s->first_execs);
    report_escape_xml(out, link != NULL ? link : "");
    report_text_put(out, "\n</failure>\n");
}

static void report_junit_known(const repro_rundir_signature *s, report_text *out) {
    const char *why = s->baseline.explanation != NULL ? s->baseline.explanation : "";
    if (report_view_is_triaged(s)) {
        report_text_printf(out, "      <skipped message=\"known %s: ",
                           triage_decision_name(s->baseline.decision));
        report_escape_xml_attr(out, why);
        report_text_put(out, "\"/>\n");
    } else {
        report_text_put(out, "      <system-out>known, accepted: ");
        report_escape_xml(out, why);
        report_text_put(out, "</system-out>\n");
    }
}

/* classname: the signature's bucket (its root cause), so that CI groups
 * the signatures of one bug; the mode where the folder has no buckets. */
static void report_junit_sig_case(const report_view *v, size_t k, report_text *out) {
    const repro_rundir_signature *s = report_view_sig(v, k);
    report_text_put(out, "    <testcase classname=\"gmfuzz.");
    if (v->run->n_buckets > 0) {
        report_escape_xml_attr(out, v->run->buckets[s->bucket].key);
    } else {
        report_text_put(out, gm_mode_name(s->finding.mode));
    }
    report_text_put(out, "\" name=\"");
    report_escape_xml_attr(out, s->finding.signature);
    report_text_put(out, "\" time=\"0\">\n");
    if (s->baseline.known) {
        report_junit_known(s, out);
    } else {
        report_junit_failure(v, k, out);
    }
    report_text_put(out, "    </testcase>\n");
}

/* "2026-11-29T12:00:13Z" -> "2026-11-29T12:00:13": the JUnit schema's
 * timestamp has no zone; it is UTC. */
static void report_junit_timestamp(const repro_rundir *r, report_text *out) {
    const char *at = r->campaign.present ? r->campaign.started_at : "";
    if (at[0] == '\0' && r->n_sigs > 0) {
        at = r->sigs[0].first_seen;
    }
    char local[REPRO_RUNDIR_TIME_MAX];
    snprintf(local, sizeof local, "%s", at);
    size_t n = strlen(local);
    if (n > 0 && local[n - 1] == 'Z') {
        local[--n] = '\0';
    }
    if (n > 0) {
        report_text_put(out, " timestamp=\"");
        report_escape_xml_attr(out, local);
        report_text_putc(out, '"');
    }
}

void report_junit_build(const report_view *v, report_text *out) {
    report_text_put(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gmfuzz\"");
    report_junit_counts(v, out);
    report_text_put(out, ">\n  <testsuite name=\"gmfuzz\"");
    report_junit_counts(v, out);
    report_junit_timestamp(v->run, out);
    report_text_put(out, ">\n");
    report_junit_properties(v->run, out);
    report_junit_run_case(v, out);
    for (size_t k = 0; k < v->run->n_sigs; k++) {
        report_junit_sig_case(v, report_view_by_bucket(v, k), out);
    }
    report_text_put(out, "  </testsuite>\n</testsuites>\n");
}
