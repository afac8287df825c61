/*
 * The ctcore worker pool. One pool serves any number of encoder instances
 * and frames; create it once, share it, release it with ct_pool_unref().
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CTCORE_RUNTIME_H
#define CTCORE_RUNTIME_H

#include "ctcore/ctcore.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A pool of `threads` workers, the calling thread included: 0 means the
 * number of online CPUs, 1 runs every job on the calling thread (no thread
 * is created). NULL when out of memory or threads < 0. When the system
 * refuses to create a thread, the pool keeps those it has: fewer workers
 * (see ct_pool_threads()), same results.
 */
CT_API ct_pool *ct_pool_new(int threads);
CT_API ct_pool *ct_pool_ref(ct_pool *pool);
/* Drops a reference; the last one joins the workers and frees the pool. */
CT_API void ct_pool_unref(ct_pool *pool);
/* The number of workers (>= 1); 1 for a NULL pool. */
CT_API int ct_pool_threads(const ct_pool *pool);

#ifdef __cplusplus
}
#endif

#endif
