/*
 * A lane: how a serial node of a frame ring (the owner, Encode) hands jobs
 * to a helper thread (its companion node, pipeline.h) while it runs the
 * rest of the frame itself: Opus' Encode the round-up half of CELT's
 * stereo theta search and its speculation, MP3's Encode the second channel
 * of a granule its speculation missed. The lane moves an opaque job and
 * calls a function pointer: it knows no codec and no task (the nodes that
 * post and serve are the graphs').
 *
 * One job at a time. Encode posts a job, runs its own part, then completes
 * the job: it claims it back when the helper has not taken it (and runs
 * it itself), else waits for the helper to finish it. The helper serves
 * the lane for one frame: it runs the jobs it claims until Encode closes
 * the frame. Both sides wait actively for a while (a job takes a few µs),
 * then sleep on a condition variable; every wait has its way out (a
 * posted job is claimed by one side only; a close always comes, the
 * frame's Encode closes whatever happens).
 *
 * Frames are counted by tickets: Encode closes ticket t once it is done
 * with the frame, and the helper of ticket t serves until then; a helper
 * that comes late for its frame (after the close) returns at once.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 * New in ct.
 */
#ifndef CTCORE_RUNTIME_LANE_H
#define CTCORE_RUNTIME_LANE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ct_lane ct_lane;

/* Runs a job: what it reads and writes is the job's own. */
typedef void (*ct_lane_job_fn)(void *job);

/* A lane with no job, no ticket closed. NULL when out of memory. */
ct_lane *ct_lane_new(void);
/* NULL is ignored. No helper may be serving. */
void ct_lane_free(ct_lane *lane);
/* Tickets from 0 again, the counts cleared; no helper may be serving. */
void ct_lane_reset(ct_lane *lane);

/* Encode: whether a helper serves the lane now (else a post would only be
 * claimed back: Encode may as well run the job its own way). */
bool ct_lane_has_helper(const ct_lane *lane);
/* Encode: offers `job` (no other job posted): a helper may run fn(job)
 * from now on, until ct_lane_complete(). */
void ct_lane_post(ct_lane *lane, ct_lane_job_fn fn, void *job);
/* Encode: once this returns, fn(job) has run and what it wrote is visible:
 * on the helper (true), or here when the helper had not taken the job
 * (false). */
bool ct_lane_complete(ct_lane *lane);
/* Encode: takes back the posted job where no helper has claimed it (true:
 * it will not run, the lane is empty); false: a helper runs or ran it, and
 * ct_lane_complete() waits for it. */
bool ct_lane_cancel(ct_lane *lane);
/* Encode: a hint that jobs come soon: a sleeping helper is woken. */
void ct_lane_wake(ct_lane *lane);
/* Encode: the frame of `ticket` (and every earlier one) is done: its
 * helper returns. No job may be posted. */
void ct_lane_close(ct_lane *lane, uint64_t ticket);

/* The helper: runs the jobs it claims until `ticket` is closed. */
void ct_lane_serve(ct_lane *lane, uint64_t ticket);

/* Since the last reset: the jobs the helper ran, and those Encode claimed
 * back and ran itself (either may be NULL). */
void ct_lane_counts(const ct_lane *lane, uint64_t *served,
                    uint64_t *taken_back);

/* Traces (on) or not (the default) the time the helper spends running
 * jobs, for a graph's trace to count as work what its waits are not; no
 * helper may be serving. */
void ct_lane_trace(ct_lane *lane, bool on);
/* Since the last reset, with the trace on: the seconds the helper ran
 * jobs. No helper may be serving. */
double ct_lane_served_seconds(const ct_lane *lane);

#endif
