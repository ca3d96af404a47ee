#!/bin/sh
# The futex suite's requeue-PI race (tests/futex/requeue_pi_race.c) on the
# rt kernel, where the futex hash bucket locks are sleeping spinlock_t and
# a waiter that wakes up early must not block on one while the requeue
# has it enqueued on the PI futex's rtmutex.
exec /tests/futex/requeue_pi_race
