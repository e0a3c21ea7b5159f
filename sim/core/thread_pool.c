/* Threads kept between launches (thread_pool.h). */
#include "thread_pool.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pool_thread {
    pthread_t thread;
    sem_t go;                   /* posted when fn and arg are set (fn NULL: end) */
    void *(*fn)(void *);
    void *arg;
    sem_t *done;                /* the pool's: posted as each job returns */
} pool_thread;

struct ws_thread_pool {
    pool_thread **threads;      /* their own allocations: a thread keeps its address */
    int32_t n, cap;
    int32_t running;            /* jobs of the last run not yet waited for */
    pid_t pid;                  /* the process the threads run in */
    sem_t done;
};

static void sem_take(sem_t *s)
{
    while (sem_wait(s) != 0 && errno == EINTR) {
    }
}

static void *pool_thread_main(void *arg)
{
    pool_thread *t = arg;
    for (;;) {
        sem_take(&t->go);
        if (!t->fn) return NULL;
        t->fn(t->arg);
        sem_post(t->done);
    }
}

ws_thread_pool *ws_thread_pool_create(void)
{
    ws_thread_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    if (sem_init(&p->done, 0, 0) != 0) {
        free(p);
        return NULL;
    }
    p->pid = getpid();
    return p;
}

/* A new thread for the pool, or false where there is no room or the
 * system refuses it. */
static bool add_thread(ws_thread_pool *p)
{
    if (p->n == p->cap) {
        int32_t cap = p->cap ? 2 * p->cap : 16;
        pool_thread **a = realloc(p->threads, sizeof *a * (size_t)cap);
        if (!a) return false;
        p->threads = a;
        p->cap = cap;
    }
    pool_thread *t = calloc(1, sizeof *t);
    if (!t) return false;
    t->done = &p->done;
    if (sem_init(&t->go, 0, 0) != 0) {
        free(t);
        return false;
    }
    if (pthread_create(&t->thread, NULL, pool_thread_main, t) != 0) {
        sem_destroy(&t->go);
        free(t);
        return false;
    }
    p->threads[p->n++] = t;
    return true;
}

/* In a forked child the threads are the parent's: their records go, and
 * so do the jobs they were running (the child waits for none of them). */
static void forget_parents_threads(ws_thread_pool *p)
{
    if (p->pid == getpid()) return;
    for (int32_t k = 0; k < p->n; k++) {
        sem_destroy(&p->threads[k]->go);
        free(p->threads[k]);
    }
    p->n = 0;
    p->running = 0;
    sem_destroy(&p->done);      /* its count, copied, may hold posts of the parent's jobs */
    sem_init(&p->done, 0, 0);
    p->pid = getpid();
}

int32_t ws_thread_pool_run(ws_thread_pool *p, int32_t n, void *(*fn)(void *), void *arg, size_t stride)
{
    forget_parents_threads(p);
    int32_t k = 0;
    for (; k < n; k++) {
        if (k == p->n && !add_thread(p)) break;
        pool_thread *t = p->threads[k];
        t->fn = fn;
        t->arg = (char *)arg + (size_t)k * stride;
        sem_post(&t->go);
    }
    p->running = k;
    return k;
}

void ws_thread_pool_wait(ws_thread_pool *p)
{
    forget_parents_threads(p);
    for (; p->running > 0; p->running--) sem_take(&p->done);
}

void ws_thread_pool_each(ws_thread_pool *p, int32_t n, void *(*fn)(void *), void *arg, size_t stride)
{
    char *item = arg;
    ws_thread_pool *own = n > 1 && !p ? ws_thread_pool_create() : NULL, *use = p ? p : own;
    int32_t away = use && n > 1 ? ws_thread_pool_run(use, n - 1, fn, item + stride, stride) : 0;
    for (int32_t k = 0; k < n; k++)
        if (k == 0 || k > away) fn(item + (size_t)k * stride);
    if (use && n > 1) ws_thread_pool_wait(use);
    ws_thread_pool_free(own);
}

void ws_thread_pool_free(ws_thread_pool *p)
{
    if (!p) return;
    ws_thread_pool_wait(p);
    for (int32_t k = 0; k < p->n; k++) {
        pool_thread *t = p->threads[k];
        t->fn = NULL;
        sem_post(&t->go);
        pthread_join(t->thread, NULL);
        sem_destroy(&t->go);
        free(t);
    }
    free(p->threads);
    sem_destroy(&p->done);
    free(p);
}

int32_t ws_thread_pool_size(const ws_thread_pool *p)
{
    return p->n;
}
