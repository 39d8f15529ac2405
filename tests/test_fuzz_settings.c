/* fuzz_settings: the job settings table read into its struct (defaults,
 * values, a bad value named), and the warning for a GMFUZZ_* name it does
 * not know, naming the closest known one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gm_test.h"

/* What fuzz_settings_warn writes for `env`, and how many lines. */
static int warned(char *const *env, char *out, size_t size) {
    FILE *f = tmpfile();
    int n = fuzz_settings_warn(env, f);
    rewind(f);
    size_t got = fread(out, 1, size - 1, f);
    out[got] = '\0';
    fclose(f);
    return n;
}

static void test_warn_names_the_closest(void) {
    char text[1024];
    char *env[] = {"PATH=/bin", "GMFUZZ_KEEP_GOIN=1", "GMFUZZ_KEEP_GOING=1",
                   "GMFUZZ_TORCH_FAULT=x", "GMFUZZ_TARGET_TIMOUT=3", NULL};
    CHECK_EQ_I64(warned(env, text, sizeof text), 2);
    CHECK_STR_CONTAINS(text, "GMFUZZ_KEEP_GOIN is not a setting gmfuzz knows "
                             "(did you mean GMFUZZ_KEEP_GOING?)");
    CHECK_STR_CONTAINS(text, "GMFUZZ_TARGET_TIMOUT is not a setting gmfuzz knows "
                             "(did you mean GMFUZZ_TARGET_TIMEOUT?)");
    CHECK(strstr(text, "TORCH_FAULT") == NULL && strstr(text, "PATH") == NULL);
    char *known[] = {"GMFUZZ_TARGET_GRAPHS=1", "GMFUZZ_WORKER_IN_PLACE=1", "GMFUZZ_TIME=5",
                     "GMFUZZ_FAILURE_DIR=x", NULL};
    CHECK_EQ_I64(warned(known, text, sizeof text), 0);
    CHECK(strcmp(fuzz_settings_closest("GMFUZZ_BASLINE"), "GMFUZZ_BASELINE") == 0);
    CHECK(strcmp(fuzz_settings_closest("GMFUZZ_TRITON_FAUL"), "GMFUZZ_TRITON_FAULT") == 0);
}

static void test_read_defaults_and_values(void) {
    fuzz_settings s;
    gm_error err = {0};
    unsetenv("GMFUZZ_CLASS_RUN");
    setenv("GMFUZZ_FAILURE_DIR", "", 1); /* empty is unset */
    setenv("GMFUZZ_KEEP_GOING", "1", 1);
    setenv("GMFUZZ_CASE_MUTATION", "35", 1);
    setenv("GMFUZZ_TARGET_TIMEOUT", "2.5", 1);
    CHECK(fuzz_settings_read(&s, &err));
    CHECK(strcmp(s.failure_dir, "gmfuzz-failures") == 0 && s.keep_going && s.case_mutation == 35);
    CHECK(s.target_timeout == 2.5 && s.class_run == FUZZ_SCHED_RUN && s.baseline == NULL);
    CHECK(strcmp(fuzz_settings_name(FUZZ_SETTING_CLASS_WARM), "GMFUZZ_CLASS_WARM") == 0);
    setenv("GMFUZZ_CLASS_RUN", "0", 1);
    CHECK(!fuzz_settings_read(&s, &err));
    CHECK_STR_CONTAINS(err.msg, "GMFUZZ_CLASS_RUN: '0' is not 1..");
    unsetenv("GMFUZZ_CLASS_RUN");
    setenv("GMFUZZ_KEEP_GOING", "yes", 1);
    CHECK(!fuzz_settings_read(&s, &err));
    CHECK_STR_CONTAINS(err.msg, "GMFUZZ_KEEP_GOING: 'yes' is not 0 or 1");
}

int main(void) {
    GM_RUN(test_warn_names_the_closest);
    GM_RUN(test_read_defaults_and_values);
    GM_TEST_END();
}
