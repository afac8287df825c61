/*
 * The wrapped allocation functions and pthread_create (see inject.h).
 * __real_* are glibc's; the linker sends every call of the objects linked
 * into the test (ctcore's static library included) to __wrap_*.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inject.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
int __real_posix_memalign(void **ptr, size_t alignment, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);
int __real_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                          void *(*start)(void *), void *arg);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);
int __wrap_posix_memalign(void **ptr, size_t alignment, size_t size);
void *__wrap_aligned_alloc(size_t alignment, size_t size);
int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                          void *(*start)(void *), void *arg);

static atomic_bool armed;
static atomic_int mode;
static atomic_long fail_at;
static atomic_long calls;
static atomic_long failed;

/* The live blocks of the armed run: an open-addressing set of pointers
 * (linear probing, deleted slots marked), under a mutex. */
#define LIVE_SLOTS   (1 << 18)
#define SLOT_DELETED ((uintptr_t)1)
static uintptr_t live_slots[LIVE_SLOTS];
static long live_count;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t slot_of(uintptr_t p)
{
    return (size_t)((p >> 4) * 0x9E3779B97F4A7C15ull >> 46) & (LIVE_SLOTS - 1);
}

static void live_add(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&live_lock);
    size_t i = slot_of(p);
    for (size_t probes = 0; live_slots[i] > SLOT_DELETED; probes++) {
        if (probes == LIVE_SLOTS) {
            fputs("inject: too many live blocks\n", stderr);
            abort();
        }
        i = (i + 1) & (LIVE_SLOTS - 1);
    }
    live_slots[i] = p;
    live_count++;
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(void *ptr)
{
    uintptr_t p = (uintptr_t)ptr;
    pthread_mutex_lock(&live_lock);
    if (live_count > 0) {
        size_t i = slot_of(p);
        for (size_t probes = 0; live_slots[i] != 0 && probes < LIVE_SLOTS;
             probes++) {
            if (live_slots[i] == p) {
                live_slots[i] = SLOT_DELETED;
                live_count--;
                break;
            }
            i = (i + 1) & (LIVE_SLOTS - 1);
        }
    }
    pthread_mutex_unlock(&live_lock);
}

/* Counts the call when armed; true when it must fail. */
static bool next_call_fails(void)
{
    if (!atomic_load(&armed))
        return false;
    long n = atomic_fetch_add(&calls, 1) + 1;
    long at = atomic_load(&fail_at);
    int m = atomic_load(&mode);
    bool fails = (m == INJECT_NTH && n == at) || (m == INJECT_FROM && n >= at);
    if (fails)
        atomic_fetch_add(&failed, 1);
    return fails;
}

static void *recorded(void *ptr)
{
    if (ptr != NULL && atomic_load(&armed))
        live_add(ptr);
    return ptr;
}

void inject_alloc_arm(inject_mode m, long at)
{
    pthread_mutex_lock(&live_lock);
    memset(live_slots, 0, sizeof(live_slots));
    live_count = 0;
    pthread_mutex_unlock(&live_lock);
    atomic_store(&calls, 0);
    atomic_store(&failed, 0);
    atomic_store(&mode, (int)m);
    atomic_store(&fail_at, at);
    atomic_store(&armed, true);
}

void inject_alloc_disarm(void)
{
    atomic_store(&armed, false);
}

long inject_alloc_calls(void)
{
    return atomic_load(&calls);
}

long inject_alloc_failed(void)
{
    return atomic_load(&failed);
}

long inject_alloc_live(void)
{
    pthread_mutex_lock(&live_lock);
    long n = live_count;
    pthread_mutex_unlock(&live_lock);
    return n;
}

void *__wrap_malloc(size_t size)
{
    if (next_call_fails())
        return NULL;
    return recorded(__real_malloc(size));
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (next_call_fails())
        return NULL;
    return recorded(__real_calloc(n, size));
}

/* A failed realloc leaves the block as it was; a moved one is the old
 * block freed and a new one allocated. */
void *__wrap_realloc(void *ptr, size_t size)
{
    if (next_call_fails())
        return NULL;
    void *moved = __real_realloc(ptr, size);
    if (moved != NULL || size == 0) {
        if (ptr != NULL)
            live_remove(ptr);
        recorded(moved);
    }
    return moved;
}

void __wrap_free(void *ptr)
{
    if (ptr != NULL)
        live_remove(ptr);
    __real_free(ptr);
}

int __wrap_posix_memalign(void **ptr, size_t alignment, size_t size)
{
    if (next_call_fails())
        return ENOMEM;
    int r = __real_posix_memalign(ptr, alignment, size);
    if (r == 0)
        recorded(*ptr);
    return r;
}

void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    if (next_call_fails())
        return NULL;
    return recorded(__real_aligned_alloc(alignment, size));
}

static atomic_long threads_fail_from;
static atomic_long threads_calls;

void inject_threads_fail_from(long from)
{
    atomic_store(&threads_calls, 0);
    atomic_store(&threads_fail_from, from);
}

long inject_threads_calls(void)
{
    return atomic_load(&threads_calls);
}

int __wrap_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                          void *(*start)(void *), void *arg)
{
    long n = atomic_fetch_add(&threads_calls, 1) + 1;
    long from = atomic_load(&threads_fail_from);
    if (from > 0 && n >= from)
        return EAGAIN;
    return __real_pthread_create(thread, attr, start, arg);
}
