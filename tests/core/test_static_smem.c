/* Two views of a kernel's static shared memory agree: the one read off the
 * IR (ptx_kernel_static_smem, for check, occupancy and the runtime) and
 * the simulator's own layout (ws_kernel.static_smem), for every kernel of
 * every PTX file in kernels/ptx and tests/ptx/data. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <glob.h>

#include "core_util.h"
#include "frontend/ptx/ptx_query.h"

static int check_pattern(const char *pattern)
{
    glob_t g;
    int kernels = 0;
    if (glob(pattern, 0, NULL, &g) != 0) return 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        ptx_error pe;
        ptx_module *m = ptx_parse_file(g.gl_pathv[i], &pe);
        if (!m) continue;                   /* the parser's tests own these */
        ws_devmem *mem = ws_devmem_create();
        ws_error err;
        ws_program *p = ws_program_load(m, mem, &err);
        for (int32_t k = 0; p && k < p->nkernels; k++) {
            const ws_kernel *kn = &p->kernels[k];
            const ptx_function *f = ws_kernel_function(kn);
            uint64_t ir = ptx_kernel_static_smem(m, f);
            if (ir != kn->static_smem)
                fail_msg("%s %s: IR says %llu B, the simulator lays out %u B", g.gl_pathv[i], f->name,
                         (unsigned long long)ir, kn->static_smem);
            kernels++;
        }
        if (p) ws_program_free(p);
        ws_devmem_destroy(mem);
        ptx_module_free(m);
    }
    globfree(&g);
    return kernels;
}

static void test_static_smem_views_agree(void **state)
{
    (void)state;
    int n = check_pattern(WARPSIM_SOURCE_DIR "/kernels/ptx/*/*.ptx") +
            check_pattern(WARPSIM_SOURCE_DIR "/tests/ptx/data/*.ptx");
    assert_true(n > 60);    /* the course kernels alone are 39 per arch */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_smem_views_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
