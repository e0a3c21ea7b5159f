/* Threads kept between launches (sim/core/thread_pool.h): each job of a
 * run gets its own argument and its own thread, a wait returns once every
 * job has, a later run takes the threads an earlier one started (growing
 * the pool only as needed), and a forked child starts threads of its own,
 * waiting for none of the parent's jobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/core/thread_pool.h"

typedef struct job {
    int32_t index;
    pthread_t ran_on;
    atomic_int *waiting;        /* jobs still to start: each waits for the others */
    int64_t sum;                /* 1 + 2 + ... + (index + 1) * 1000, worked out */
} job;

/* Waits until every job of the run has started (so each holds a thread of
 * its own), then does some work. */
static void *job_main(void *arg)
{
    job *j = arg;
    j->ran_on = pthread_self();
    atomic_fetch_sub(j->waiting, 1);
    while (atomic_load(j->waiting) > 0) {
    }
    int64_t s = 0;
    for (int64_t v = 1; v <= (int64_t)(j->index + 1) * 1000; v++) s += v;
    j->sum = s;
    return NULL;
}

/* n jobs on p; checks their results and that they ran on n threads other
 * than this one; their threads into ran_on. */
static void run_jobs(ws_thread_pool *p, int32_t n, pthread_t *ran_on)
{
    job jobs[16];
    atomic_int waiting;
    atomic_init(&waiting, n);
    for (int32_t k = 0; k < n; k++) jobs[k] = (job){.index = k, .waiting = &waiting, .sum = -1};
    assert_int_equal(ws_thread_pool_run(p, n, job_main, jobs, sizeof jobs[0]), n);
    ws_thread_pool_wait(p);
    for (int32_t k = 0; k < n; k++) {
        int64_t m = (int64_t)(k + 1) * 1000;
        assert_int_equal(jobs[k].sum, m * (m + 1) / 2);
        assert_false(pthread_equal(jobs[k].ran_on, pthread_self()));
        for (int32_t i = 0; i < k; i++) assert_false(pthread_equal(jobs[k].ran_on, jobs[i].ran_on));
        ran_on[k] = jobs[k].ran_on;
    }
}

static bool among(pthread_t t, const pthread_t *set, int32_t n)
{
    for (int32_t k = 0; k < n; k++)
        if (pthread_equal(t, set[k])) return true;
    return false;
}

/* In a forked child: two jobs on p, which must start threads of its own
 * (the parent's are not here: a run that waited for them would never
 * end), then p freed; whether both jobs ran right on two threads. */
static bool child_runs_two_jobs(ws_thread_pool *p)
{
    job jobs[2];
    atomic_int waiting;
    atomic_init(&waiting, 2);
    for (int32_t k = 0; k < 2; k++) jobs[k] = (job){.index = k, .waiting = &waiting, .sum = -1};
    int32_t started = ws_thread_pool_run(p, 2, job_main, jobs, sizeof jobs[0]);
    ws_thread_pool_wait(p);
    bool good = started == 2 && ws_thread_pool_size(p) == 2 && jobs[0].sum == 1000 * 1001 / 2 &&
                jobs[1].sum == 2000 * 2001 / 2;
    ws_thread_pool_free(p);
    return good;
}

/* The child pid has ended, with status 0. */
static void assert_child_succeeded(pid_t pid)
{
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_runs_take_the_threads_of_earlier_runs(void **state)
{
    (void)state;
    ws_thread_pool *p = ws_thread_pool_create();
    assert_non_null(p);
    assert_int_equal(ws_thread_pool_size(p), 0);
    pthread_t first[16], second[16], third[16];
    run_jobs(p, 3, first);
    assert_int_equal(ws_thread_pool_size(p), 3);
    run_jobs(p, 3, second);
    assert_int_equal(ws_thread_pool_size(p), 3);
    for (int32_t k = 0; k < 3; k++) assert_true(among(second[k], first, 3));
    /* more jobs: the three threads and five new ones */
    run_jobs(p, 8, third);
    assert_int_equal(ws_thread_pool_size(p), 8);
    int32_t old = 0;
    for (int32_t k = 0; k < 8; k++) old += among(third[k], first, 3);
    assert_int_equal(old, 3);
    /* fewer: no thread started, none lost */
    run_jobs(p, 2, second);
    assert_int_equal(ws_thread_pool_size(p), 8);
    ws_thread_pool_free(p);
}

static void test_wait_without_a_run_and_free_of_nothing(void **state)
{
    (void)state;
    ws_thread_pool *p = ws_thread_pool_create();
    assert_non_null(p);
    ws_thread_pool_wait(p);
    assert_int_equal(ws_thread_pool_run(p, 0, job_main, NULL, sizeof(job)), 0);
    ws_thread_pool_wait(p);
    ws_thread_pool_free(p);
    ws_thread_pool_free(NULL);
}

static void test_a_forked_child_starts_its_own(void **state)
{
    (void)state;
    ws_thread_pool *p = ws_thread_pool_create();
    assert_non_null(p);
    pthread_t ran_on[16];
    run_jobs(p, 4, ran_on);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) _exit(child_runs_two_jobs(p) ? 0 : 1);
    assert_child_succeeded(pid);
    assert_int_equal(ws_thread_pool_size(p), 4);
    /* a child that only frees the pool: nothing to join, nothing left */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        ws_thread_pool_free(p);
        _exit(0);
    }
    assert_child_succeeded(pid);
    run_jobs(p, 4, ran_on);
    ws_thread_pool_free(p);
}

/* Waits for *go before it returns. */
static void *held_job(void *arg)
{
    atomic_int *go = arg;
    while (!atomic_load(go)) usleep(1000);
    return NULL;
}

/* A child forked while a run's jobs still run (a program's other host
 * thread forks while a launch runs on the pool) waits for none of them:
 * its wait returns, its free ends, and its own runs work. */
static void test_a_child_forked_mid_run_waits_for_nothing(void **state)
{
    (void)state;
    ws_thread_pool *p = ws_thread_pool_create();
    assert_non_null(p);
    static atomic_int go;
    atomic_init(&go, 0);
    assert_int_equal(ws_thread_pool_run(p, 3, held_job, &go, 0), 3);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20);      /* a wait for the parent's jobs would hang: the alarm kills it */
        ws_thread_pool_wait(p);
        _exit(child_runs_two_jobs(p) ? 0 : 1);
    }
    assert_child_succeeded(pid);
    /* the parent's run goes on, and ends when its jobs do */
    atomic_store(&go, 1);
    ws_thread_pool_wait(p);
    assert_int_equal(ws_thread_pool_size(p), 3);
    pthread_t ran_on[16];
    run_jobs(p, 3, ran_on);
    ws_thread_pool_free(p);
}

typedef struct item {
    atomic_int runs;
    pthread_t ran_on;
} item;

static void *count_run(void *arg)
{
    item *it = arg;
    it->ran_on = pthread_self();
    atomic_fetch_add(&it->runs, 1);
    return NULL;
}

/* ws_thread_pool_each runs every item once, the first on the calling
 * thread and the others on threads of their own, with a pool kept and
 * with none (one of the call's own); one item runs here alone. */
static void test_each_item_once(void **state)
{
    (void)state;
    ws_thread_pool *kept = ws_thread_pool_create();
    assert_non_null(kept);
    for (int with = 0; with < 2; with++) {
        for (int32_t n = 1; n <= 6; n += 5) {
            item items[6];
            for (int32_t k = 0; k < n; k++) atomic_init(&items[k].runs, 0);
            ws_thread_pool_each(with ? kept : NULL, n, count_run, items, sizeof items[0]);
            for (int32_t k = 0; k < n; k++) {
                assert_int_equal(atomic_load(&items[k].runs), 1);
                assert_int_equal(pthread_equal(items[k].ran_on, pthread_self()) != 0, k == 0);
            }
        }
    }
    assert_int_equal(ws_thread_pool_size(kept), 5);
    ws_thread_pool_free(kept);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_take_the_threads_of_earlier_runs),
        cmocka_unit_test(test_wait_without_a_run_and_free_of_nothing),
        cmocka_unit_test(test_a_forked_child_starts_its_own),
        cmocka_unit_test(test_a_child_forked_mid_run_waits_for_nothing),
        cmocka_unit_test(test_each_item_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
