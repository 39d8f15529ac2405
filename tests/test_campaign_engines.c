/* The engine side of the campaign driver (campaign/campaign_*.c): parsing what
 * the engines print (samples captured from libFuzzer 14 and AFL++ 4.04c),
 * the status line, options and command lines (test_campaign.c has the
 * files: log follower, processes, lock, failure folder, baseline,
 * reproducer names and the summary).
 *
 *   test_campaign_engines
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign_afl.h"
#include "campaign_libfuzzer.h"
#include "campaign_options.h"
#include "campaign_stats.h"
#include "campaign_status.h"
#include "report_format.h"
#include "gm_test.h"
#include "test_campaign_setup.h"

/* ---- engine output ------------------------------------------------------ */

static void test_libfuzzer_status_lines(void) {
    campaign_stats s = {0};
    CHECK(!campaign_stats_libfuzzer_line("INFO: Seed: 1", &s));
    CHECK(!campaign_stats_libfuzzer_line("    #0 0x55f4e595cd14 in __sanitizer_print_stack_trace",
                                         &s));
    CHECK(!s.have);
    CHECK(campaign_stats_libfuzzer_line("#2\tINITED cov: 3 ft: 3 corp: 1/1b exec/s: 0 rss: 27Mb",
                                        &s));
    CHECK(s.have);
    CHECK_EQ_I64(s.execs, 2);
    CHECK_EQ_I64(s.coverage, 3);
    CHECK_EQ_I64(s.corpus, 1);
    CHECK(campaign_stats_libfuzzer_line(
        "#1793\tNEW    cov: 8 ft: 8 corp: 6/20b lim: 14 exec/s: 0 rss: 27Mb L: 5/5 MS: 2 "
        "InsertByte-ChangeBit-",
        &s));
    CHECK_EQ_I64(s.execs, 1793);
    CHECK_EQ_I64(s.coverage, 8);
    CHECK_EQ_I64(s.corpus, 6);
    CHECK(campaign_stats_libfuzzer_line(
        "#262144\tpulse  cov: 812 ft: 2900 corp: 310/22Kb lim: 4096 exec/s: 21845 rss: 48Mb", &s));
    CHECK_EQ_I64(s.execs, 262144);
    CHECK_EQ_I64(s.exec_per_sec, 21845);
    CHECK_EQ_I64(s.coverage, 812);
    CHECK_EQ_I64(s.corpus, 310);
    CHECK(!s.final);
}

static void test_libfuzzer_fork_and_final(void) {
    campaign_stats s = {0};
    CHECK(campaign_stats_libfuzzer_line(
        "#45815: cov: 9 ft: 8 corp: 6 exec/s 1200 oom/timeout/crash: 0/0/1 time: 0s job: 2 "
        "dft_time: 0",
        &s));
    CHECK_EQ_I64(s.execs, 45815);
    CHECK_EQ_I64(s.exec_per_sec, 1200);
    CHECK_EQ_I64(s.coverage, 9);
    CHECK_EQ_I64(s.corpus, 6);
    CHECK(campaign_stats_libfuzzer_line("stat::number_of_executed_units: 60023", &s));
    CHECK(campaign_stats_libfuzzer_line("stat::average_exec_per_sec:     30011", &s));
    CHECK(!campaign_stats_libfuzzer_line("stat::peak_rss_mb:              29", &s));
    CHECK(s.final);
    CHECK_EQ_I64(s.execs, 60023);
    CHECK_EQ_I64(s.exec_per_sec, 30011);
    CHECK_EQ_I64(s.coverage, 9); /* kept from the last status line */
}

static const char afl_stats_sample[] =
    "start_time        : 1732870000\n"
    "last_update       : 1732870042\n"
    "run_time          : 42\n"
    "fuzzer_pid        : 4242\n"
    "cycles_done       : 3\n"
    "execs_done        : 1234567\n"
    "execs_per_sec     : 29394.45\n"
    "corpus_count      : 318\n"
    "corpus_found      : 300\n"
    "bitmap_cvg        : 4.81%\n"
    "saved_crashes     : 2\n"
    "edges_found       : 1577\n"
    "target_mode       : persistent shmem_testcase default\n";

static void test_afl_stats(void) {
    campaign_stats s = {0};
    CHECK(!campaign_stats_afl("nothing: here\n", &s));
    CHECK(!s.have);
    CHECK(campaign_stats_afl(afl_stats_sample, &s));
    CHECK_EQ_I64(s.execs, 1234567);
    CHECK_EQ_I64(s.exec_per_sec, 29394);
    CHECK_EQ_I64(s.corpus, 318);
    CHECK_EQ_I64(s.coverage, 1577);
}

static void test_afl_plot(void) {
    static const char plot[] =
        "# relative_time, cycles_done, cur_item, corpus_count, pending_total, pending_favs, "
        "map_size, saved_crashes, saved_hangs, max_depth, execs_per_sec, total_execs, "
        "edges_found\n"
        "5, 0, 0, 12, 11, 3, 1.20%, 0, 0, 2, 2100.50, 10500, 390\n"
        "10, 0, 4, 40, 30, 8, 2.11%, 1, 0, 3, 2250.00, 22000, 688\n";
    campaign_stats s = {0};
    CHECK(!campaign_stats_afl_plot("# relative_time, total_execs\n", &s));
    CHECK(campaign_stats_afl_plot(plot, &s));
    CHECK_EQ_I64(s.execs, 22000);
    CHECK_EQ_I64(s.exec_per_sec, 2250);
    CHECK_EQ_I64(s.corpus, 40);
    CHECK_EQ_I64(s.coverage, 688);
}

/* ---- the live line ------------------------------------------------------ */

static void test_status_human(void) {
    char buf[16];
    const struct {
        uint64_t v;
        const char *text;
    } cases[] = {{0, "0"},          {999, "999"},       {1000, "1.00k"},
                 {20512, "20.5k"},  {512000, "512k"},   {999499, "999k"},
                 {999950, "1.00M"}, {1234567, "1.23M"}, {4200000000ull, "4.20G"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        report_format_count(cases[i].v, buf, sizeof buf);
        CHECK_STR_CONTAINS(buf, cases[i].text);
        CHECK_EQ_I64(strlen(buf), strlen(cases[i].text));
    }
}

static void test_status_line(void) {
    campaign_status st = {12.4, 60.0, 1234567, 20512, 812, 310, 2, 5, 2, 2};
    char line[256];
    campaign_status_format(&st, line, sizeof line);
    CHECK(strcmp(line, "[  12s/60s] execs 1.23M  exec/s 20.5k  cov 812  corpus 310  "
                       "signatures 2 (5 failures)  jobs 2/2") == 0);
    st.failures = 1;
    campaign_status_format(&st, line, sizeof line);
    CHECK_STR_CONTAINS(line, "signatures 2 (1 failure)  jobs");
}

/* ---- options and command lines ------------------------------------------ */

/* The flags in order, each with its value when it takes one, as the
 * command line hands them over (cli/cmd_fuzz.c scans argv with getopt_long;
 * tests/campaign.cmake checks its messages). */
static bool parse(campaign_options *o, char *msg, int argc, ...) {
    va_list ap;
    va_start(ap, argc);
    campaign_options_default(o);
    bool ok = true;
    msg[0] = '\0';
    for (int i = 1; i < argc && ok; i++) {
        const char *flag = va_arg(ap, char *);
        const char *value = NULL;
        if (campaign_options_takes_value(flag) && i + 1 < argc) {
            value = va_arg(ap, char *);
            i++;
        }
        ok = campaign_options_set(o, flag, value);
    }
    va_end(ap);
    return ok && campaign_options_check(o, msg, 256);
}

static void test_options(void) {
    campaign_options o;
    char msg[256] = "";
    CHECK(parse(&o, msg, 1));
    CHECK(strcmp(campaign_engine_name(o.engine), "libfuzzer") == 0);
    CHECK(strcmp(o.backend, "cpu") == 0);
    CHECK(o.time_s == CAMPAIGN_DEFAULT_TIME_S);
    CHECK_EQ_I64(o.jobs, sysconf(_SC_NPROCESSORS_ONLN));
    CHECK(o.out_dir == NULL && o.minimize && !o.strict_baseline && o.compare == GM_COMPARE_LIVE);
    CHECK(parse(&o, msg, 12, "--engine", "afl++", "--backend", "cuda", "--time", "2.5", "--jobs",
                "3", "--compare", "strict", "--strict-baseline"));
    CHECK(strcmp(campaign_engine_name(o.engine), "afl++") == 0 && strcmp(o.backend, "cuda") == 0 &&
          o.time_s == 2.5 && o.jobs == 3 && o.compare == GM_COMPARE_STRICT && o.strict_baseline);
    CHECK(!o.abort_on_failure && !o.stop_on_new);
    CHECK(parse(&o, msg, 6, "--no-seeds", "--no-dict", "--no-minimize", "--abort-on-failure",
                "--stop-on-new"));
    CHECK(strcmp(o.seeds, "") == 0 && strcmp(o.dict, "") == 0 && !o.minimize);
    CHECK(o.abort_on_failure && o.stop_on_new);
    CHECK(!parse(&o, msg, 3, "--jobs", "0"));
    CHECK(!parse(&o, msg, 2, "--time"));
    CHECK(!campaign_options_set(&o, "--no-seeds", "x")); /* a switch takes no value */
    CHECK(!campaign_options_set(&o, "--time", NULL));   /* a valued flag needs one */
    CHECK(!parse(&o, msg, 3, "--time", "-5"));
    CHECK(!parse(&o, msg, 3, "--engine", "honggfuzz"));
    CHECK(!parse(&o, msg, 3, "--backend", "tpu"));
    CHECK(!parse(&o, msg, 2, "--frobnicate"));
    CHECK(!parse(&o, msg, 5, "--engine", "afl++", "--runs", "10"));
    CHECK_STR_CONTAINS(msg, "--runs is for libFuzzer");
    CHECK(parse(&o, msg, 9, "--no-seeds", "--no-minimize", "--schedule", "naive", "--hubs", "0",
                "--target-device", "cpu"));
    CHECK(strcmp(o.seeds, "") == 0 && !o.minimize && strcmp(o.schedule, "naive") == 0);
    CHECK(o.hubs == 0 && strcmp(o.target_device, "cpu") == 0);
    CHECK(!parse(&o, msg, 3, "--schedule", "class")); /* a prefix of a choice is not one */
    CHECK(!parse(&o, msg, 3, "--target-device", ""));
}

/* The flag table: every flag its usage lists, and none twice. */
static void test_flag_table(void) {
    size_t n = campaign_options_count();
    char *usage = NULL;
    size_t usage_size = 0;
    FILE *f = open_memstream(&usage, &usage_size);
    campaign_options_usage(f, CAMPAIGN_HELP_FUZZ);
    fclose(f);
    CHECK(n > 30);
    for (size_t i = 0; i < n; i++) {
        bool valued = false;
        const char *name = campaign_options_name(i, &valued);
        char flag[64], line[80];
        snprintf(flag, sizeof flag, "--%s", name);
        CHECK(campaign_options_takes_value(flag) == valued);
        snprintf(line, sizeof line, "\n  %s%s", flag, valued ? " " : " ");
        CHECK(strstr(usage, line) != NULL || strncmp(usage, line + 1, strlen(line) - 1) == 0);
        for (size_t j = 0; j < i; j++) {
            bool ignored = false;
            CHECK(strcmp(name, campaign_options_name(j, &ignored)) != 0);
        }
    }
    bool ignored = false;
    CHECK(campaign_options_name(n, &ignored) == NULL && !campaign_options_takes_value("--help"));
    free(usage);
}

/* The list joined with spaces. */
static void joined(campaign_argv *a, char *out, size_t size) {
    out[0] = '\0';
    for (size_t i = 0; i < a->count; i++) {
        strncat(out, i ? " " : "", size - strlen(out) - 1);
        strncat(out, a->items[i], size - strlen(out) - 1);
    }
}

static void test_libfuzzer_argv(void) {
    campaign_setup s;
    campaign_worker w;
    campaign_argv a;
    char line[1024];
    test_campaign_setup_fake(&s, CAMPAIGN_LIBFUZZER);
    s.opt.runs = 1000;
    s.opt.seed = 7;
    campaign_worker_init(&w, &s, 1);
    CHECK(strcmp(w.name, "job-1") == 0 && strcmp(w.log_path, "/o/logs/job-1.log") == 0);
    campaign_argv_init(&a);
    campaign_libfuzzer_argv(&s, &w, 59.2, &a);
    joined(&a, line, sizeof line);
    CHECK(strcmp(line, "/b/fuzz/target -print_final_stats=1 -max_total_time=60 "
                       "-artifact_prefix=/o/artifacts/ -runs=1000 -seed=8 "
                       "-dict=/src/fuzz/gmfuzz.dict /o/corpus") == 0);
    campaign_argv_free(&a);
    /* A restart: the budget left, a seed of its own, at least a second. */
    w.starts = 1;
    w.execs_before = 400;
    campaign_argv_init(&a);
    campaign_libfuzzer_argv(&s, &w, 0.3, &a);
    joined(&a, line, sizeof line);
    CHECK_STR_CONTAINS(line, "-max_total_time=1 ");
    CHECK_STR_CONTAINS(line, "-runs=600 -seed=10 ");
    campaign_argv_free(&a);
}

static void test_libfuzzer_restarts(void) {
    campaign_setup s;
    campaign_worker w;
    test_campaign_setup_fake(&s, CAMPAIGN_LIBFUZZER);
    campaign_worker_init(&w, &s, 0);
    w.proc.exited = false; /* killed by SIGABRT: the target stopped on a failure */
    w.proc.code = 6;
    CHECK(campaign_libfuzzer_restarts(&s, &w));
    w.proc.exited = true; /* exit 77 after a deadly signal */
    w.proc.code = 77;
    CHECK(campaign_libfuzzer_restarts(&s, &w));
    w.proc.code = 0; /* done: -runs or -max_total_time reached */
    CHECK(!campaign_libfuzzer_restarts(&s, &w));
    w.proc.code = 77;
    s.opt.runs = 100;
    w.execs_before = 100; /* budget spent */
    CHECK(!campaign_libfuzzer_restarts(&s, &w));
}

/* How long a run's execution count may stand still (no_progress): past its
 * next power-of-two report at its rate, twice over. */
static void test_exec_idle(void) {
    campaign_setup s;
    campaign_worker w;
    test_campaign_setup_fake(&s, CAMPAIGN_LIBFUZZER);
    campaign_worker_init(&w, &s, 0);
    w.proc.running = true;
    w.started_s = 10.0;
    w.stats.have = true;
    w.stats.execs = 256; /* "#256 pulse ... exec/s: 1000" at 10.3 s */
    w.stats.exec_per_sec = 1000;
    w.stats_seen_s = 10.3;
    /* the next report (#512) is due by 10.556; 2 x 0.256 s allowed */
    CHECK(campaign_worker_exec_idle(&w, true, 10.5) == 0.0);
    double idle = campaign_worker_exec_idle(&w, true, 13.0);
    CHECK(idle > 2.18 && idle < 2.19);
    CHECK(campaign_worker_exec_idle(&w, false, 13.0) > 2.69); /* no pow2 allowance */
    /* Under 1 exec/s ("exec/s: 0"): the run's average, 64 in 128 s, so the
     * next report (#128) may take 128 s, 256 s allowed. */
    w.stats.execs = 64;
    w.stats.exec_per_sec = 0;
    w.stats_seen_s = 138.0;
    CHECK(campaign_worker_exec_idle(&w, true, 138.0 + 255.0) == 0.0);
    CHECK(campaign_worker_exec_idle(&w, true, 138.0 + 260.0) > 3.9);
    /* Nothing reported yet: from the run's start. */
    w.stats.execs = 0;
    w.stats_seen_s = 0.0;
    CHECK(campaign_worker_exec_idle(&w, true, 12.5) > 2.49);
}

static void test_afl_argv(void) {
    campaign_setup s;
    campaign_worker main_w, sec;
    campaign_argv a, env;
    char line[1024];
    test_campaign_setup_fake(&s, CAMPAIGN_AFL);
    campaign_worker_init(&main_w, &s, 0);
    campaign_worker_init(&sec, &s, 2);
    CHECK(strcmp(main_w.name, "main") == 0 && strcmp(sec.name, "sec-2") == 0);
    campaign_argv_init(&a);
    campaign_afl_argv(&s, &main_w, 30.0, &a);
    joined(&a, line, sizeof line);
    CHECK(strcmp(line, "afl-fuzz -i /o/corpus -o /o/afl -M main -V 30 -x "
                       "/src/fuzz/gmfuzz.dict -- /b/fuzz/target") == 0);
    campaign_argv_free(&a);
    campaign_argv_init(&a);
    s.dict[0] = '\0';
    campaign_afl_argv(&s, &sec, 30.0, &a);
    joined(&a, line, sizeof line);
    CHECK(strcmp(line, "afl-fuzz -i /o/corpus -o /o/afl -S sec-2 -V 30 -- /b/fuzz/target") == 0);
    campaign_argv_free(&a);
    campaign_argv_init(&env);
    campaign_afl_env(&env);
    joined(&env, line, sizeof line);
    CHECK_STR_CONTAINS(line, "AFL_SKIP_CPUFREQ=1");
    CHECK_STR_CONTAINS(line, "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1");
    CHECK_STR_CONTAINS(line, "AFL_NO_UI=1");
    campaign_argv_free(&env);
}

int main(void) {
    GM_RUN(test_libfuzzer_status_lines);
    GM_RUN(test_libfuzzer_fork_and_final);
    GM_RUN(test_afl_stats);
    GM_RUN(test_afl_plot);
    GM_RUN(test_status_human);
    GM_RUN(test_status_line);
    GM_RUN(test_options);
    GM_RUN(test_flag_table);
    GM_RUN(test_libfuzzer_argv);
    GM_RUN(test_libfuzzer_restarts);
    GM_RUN(test_exec_idle);
    GM_RUN(test_afl_argv);
    GM_TEST_END();
}
