#include "fuzz_decode.h"

#include "fuzz_header.h"
#include "fuzz_input.h"

bool fuzz_decode(const uint8_t *data, size_t size, gm_case *out, gm_error *err) {
    fuzz_recipe r;
    return fuzz_decode_recipe(data, size, out, &r, err);
}

void fuzz_decode_records(fuzz_input *in, const fuzz_recipe *r, const fuzz_record_target *t) {
    fuzz_value_ctx ctx;
    fuzz_recipe_ctx(r, &ctx);
    size_t fill_budget = FUZZ_FILL_BUDGET;
    /* Every record takes at least its tag byte: the loop ends. */
    while (fuzz_input_remaining(in) > 0) {
        fuzz_record_apply_next(in, t, r, &ctx, &fill_budget);
    }
}

bool fuzz_decode_recipe(const uint8_t *data, size_t size, gm_case *out, fuzz_recipe *recipe,
                        gm_error *err) {
    return fuzz_decode_from(data, size, out, recipe, NULL, err);
}

bool fuzz_decode_from(const uint8_t *data, size_t size, gm_case *out, fuzz_recipe *recipe,
                      const fuzz_recipe_donor *base, gm_error *err) {
    fuzz_input in;
    fuzz_input_init(&in, data, size);
    fuzz_recipe r;
    fuzz_header_read(&in, &r);
    *recipe = r;
    if (!fuzz_recipe_build_from(&r, base, out, err)) {
        return false;
    }
    fuzz_record_target target;
    fuzz_record_target_init(&target, out);
    fuzz_decode_records(&in, &r, &target);
    return true;
}
