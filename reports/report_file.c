#include "report_file.h"

#include "gm_file.h"

bool report_file_write(const char *path, const report_text *t, gm_error *err) {
    if (t->failed) {
        return gm_error_set(err, GM_ERR_MEMORY, "%s: out of memory building it", path);
    }
    return gm_file_write_atomic(path, report_text_str(t), t->len, err);
}
