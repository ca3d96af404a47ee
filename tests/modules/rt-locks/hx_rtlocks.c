// SPDX-License-Identifier: GPL-2.0
/*
 * Targeted tests of the PREEMPT_RT lock substitution (issue 5), run on load.
 *
 *   insmod hx_rtlocks.ko tests=wake,pi,fair,ww     (default: all)
 *
 * Each check prints one line to the kernel log,
 *
 *   hx_rtlocks: RESULT pass|fail|skip <name>: <detail>
 *
 * which tests/rt/rtlocks.sh turns into TAP.  Loading fails (-EIO) when a
 * check failed.  Every wait is bounded; a lock that never comes back shows
 * as a failed check, not as a hang, wherever that can be arranged.
 *
 * wake  A task that sets TASK_UNINTERRUPTIBLE and then blocks on a contended
 *       spinlock_t/rwlock_t keeps that state across the lock, and a
 *       wake_up_process() that arrives while it is blocked is not lost;
 *       one that finds a TASK_RUNNING waiter returns 0 and leaves it waiting.
 * pi    Priority inheritance: a low-priority SCHED_FIFO owner of a lock is
 *       boosted to the priority of a high-priority waiter while it waits,
 *       and deboosted by the unlock.  The owner keeps running on its own
 *       CPU meanwhile, so a waiter that spins on it without queueing (and
 *       so without boosting it) fails the check (spinlock_t, rwlock_t, mutex,
 *       rw_semaphore writer owner with writer/reader waiters, rt_mutex,
 *       local_lock_t with owner and waiter on the same CPU: on RT the
 *       holder stays preemptible but cannot migrate).
 *       Reader-owned rw_semaphore/rwlock_t: readers cannot be boosted on
 *       RT; the waiting writer must get the lock right after they leave.
 * fair  A writer is not starved by a stream of readers (rwlock_t,
 *       rw_semaphore): it gets the lock within a bound.  A new rwlock_t
 *       reader queues behind a waiting writer, but one that already holds
 *       the lock for read (nested), or has bottom halves off, gets in.
 * ww    ww_mutex deadlock resolution: 8 contexts lock random subsets of 16
 *       ww_mutexes in random order (-EDEADLK backoff), wound-wait and
 *       wait-die; every context completes and no lock is ever held twice.
 *       ww_repeat=N runs both N times: two contexts that spin on each
 *       other livelocked only about one run in 15.
 *
 * Written for this harness; only public kernel APIs.  On a kernel without
 * PREEMPT_RT the checks that need sleeping spinlocks report skip.
 */
#define pr_fmt(fmt) "hx_rtlocks: " fmt

#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/sched/debug.h>
#include <linux/sched/types.h>
#include <uapi/linux/sched/types.h>
#include <linux/spinlock.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/rtmutex.h>
#include <linux/ww_mutex.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/atomic.h>
#include <linux/cpumask.h>

static char *tests = "all";
module_param(tests, charp, 0444);
MODULE_PARM_DESC(tests, "comma-separated: wake,pi,fair,ww (default all)");

static bool ww_rt;
module_param(ww_rt, bool, 0444);
MODULE_PARM_DESC(ww_rt, "ww: half of the contexts SCHED_FIFO (priority-ordered RT ww_mutex)");

static unsigned int ww_repeat = 1;
module_param(ww_repeat, uint, 0444);
MODULE_PARM_DESC(ww_repeat, "ww: run the checks this many times (a livelock may take many runs)");

static int n_failed;
static bool pinned;

/*
 * A check whose threads never finished: show where they are, keep the
 * module (their code) loaded for good and leak their data, so the other
 * checks and the boot go on; the check itself has failed.
 */
static void hang_report(struct task_struct **t, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!IS_ERR_OR_NULL(t[i]) && !(READ_ONCE(t[i]->__state) & TASK_DEAD))
			sched_show_task(t[i]);
	if (!pinned) {
		__module_get(THIS_MODULE);
		pinned = true;
	}
}

#define RT_KERNEL IS_ENABLED(CONFIG_PREEMPT_RT)

/* FIFO priorities of the tasks, and the kernel prio they map to. */
#define LOW_RTPRIO	10
#define HIGH_RTPRIO	80
#define HOG_RTPRIO	90
#define KPRIO(rtprio)	(MAX_RT_PRIO - 1 - (rtprio))

static __printf(3, 4) void result(const char *status, const char *name, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("RESULT %s %s: %pV\n", status, name, &vaf);
	va_end(args);
	if (!strcmp(status, "fail"))
		n_failed++;
}

static bool wanted(const char *name)
{
	const char *p = tests;
	size_t len = strlen(name);

	if (!strcmp(tests, "all"))
		return true;
	while (p && *p) {
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return false;
}

static int set_fifo(struct task_struct *p, int rtprio)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = SCHED_FIFO,
		.sched_priority = rtprio,
	};

	return sched_setattr_nocheck(p, &attr);
}

/*
 * Create a kthread bound to @cpu (or unbound for -1), at SCHED_FIFO
 * @rtprio (or SCHED_OTHER for 0), not yet woken; holds a reference.
 */
static struct task_struct *make_thread(int (*fn)(void *), void *arg,
				       const char *name, int cpu, int rtprio)
{
	struct task_struct *t;

	t = kthread_create(fn, arg, "%s", name);
	if (IS_ERR(t))
		return t;
	get_task_struct(t);
	if (cpu >= 0)
		kthread_bind(t, cpu);
	if (rtprio && set_fifo(t, rtprio))
		pr_warn("could not make %s SCHED_FIFO\n", name);
	return t;
}

/* Wait for a completion for at most @ms; false on timeout. */
static bool wait_ms(struct completion *c, unsigned int ms)
{
	return wait_for_completion_timeout(c, msecs_to_jiffies(ms)) != 0;
}

static int cpu_a, cpu_b;	/* two online CPUs (the same one on UP) */

/* ------------------------------------------------------------------ */
/* wake: task state across a contended spinlock_t / rwlock_t           */

/*
 * A check's zeroed context, or NULL after reporting why there is none: a
 * skip when it needs PREEMPT_RT (@why) and this is not, a failure when out
 * of memory.
 */
static void *test_ctx_alloc(const char *name, size_t size, bool needs_rt,
			    const char *why)
{
	void *c;

	if (needs_rt && !RT_KERNEL) {
		result("skip", name, "%s", why);
		return NULL;
	}
	c = kzalloc(size, GFP_KERNEL);
	if (!c)
		result("fail", name, "no memory");
	return c;
}

struct wake_ctx {
	struct completion held, w_done, h_done, hog_done;
	bool release, hog_stop;
	bool rw;		/* rwlock_t instead of spinlock_t */
	bool running;		/* take the lock in TASK_RUNNING */
	unsigned int state_after_lock, state_after_unlock;
	long sleep_left;	/* schedule_timeout() remainder, if it slept */
};

static DEFINE_SPINLOCK(wake_spin);
static DEFINE_RWLOCK(wake_rw);

/* Hold until told to let go (or 5 s); the waiter blocks meanwhile. */
static void wake_hold(struct wake_ctx *c)
{
	ktime_t end = ktime_add_ms(ktime_get(), 5000);

	while (!READ_ONCE(c->release) && ktime_before(ktime_get(), end))
		cpu_relax();
}

/* The holder write-locks the rwlock_t case, so the waiter's reader blocks. */
static int wake_holder(void *arg)
{
	struct wake_ctx *c = arg;

	if (c->rw)
		write_lock(&wake_rw);
	else
		spin_lock(&wake_spin);
	complete(&c->held);
	wake_hold(c);
	if (c->rw)
		write_unlock(&wake_rw);
	else
		spin_unlock(&wake_spin);
	kthread_complete_and_exit(&c->h_done, 0);
}

/* After the lock: if the state says we still sleep, sleep at most 1 s. */
static void wake_after(struct wake_ctx *c)
{
	c->state_after_unlock = READ_ONCE(current->__state);
	c->sleep_left = -1;
	if (c->state_after_unlock != TASK_RUNNING)
		c->sleep_left = schedule_timeout(HZ);
	__set_current_state(TASK_RUNNING);
}

static int wake_waiter(void *arg)
{
	struct wake_ctx *c = arg;

	if (!c->running)
		set_current_state(TASK_UNINTERRUPTIBLE);
	if (c->rw) {
		read_lock(&wake_rw);
		c->state_after_lock = READ_ONCE(current->__state);
		read_unlock(&wake_rw);
	} else {
		spin_lock(&wake_spin);
		c->state_after_lock = READ_ONCE(current->__state);
		spin_unlock(&wake_spin);
	}
	wake_after(c);
	kthread_complete_and_exit(&c->w_done, 0);
}

/* A SCHED_FIFO busy loop that preempts the lock owner on its CPU. */
static int wake_hog(void *arg)
{
	struct wake_ctx *c = arg;
	ktime_t end = ktime_add_ms(ktime_get(), 3000);

	while (!READ_ONCE(c->hog_stop) && ktime_before(ktime_get(), end))
		cpu_relax();
	kthread_complete_and_exit(&c->hog_done, 0);
}

/* Is @t blocked on a lock (an rtmutex waiter), and off the CPU if @off? */
static bool blocked_on_lock(struct task_struct *t, bool off)
{
#ifdef CONFIG_RT_MUTEXES
	if (!READ_ONCE(t->pi_blocked_on))
		return false;
#endif
	return !off || !READ_ONCE(t->on_cpu);
}

/* What a wake_one() case expects, from the fields it recorded. */
static void wake_verdict(const char *name, struct wake_ctx *c, bool do_wake,
			 int blocked, int woke, bool blocked_after_wake)
{
	unsigned int want = c->running ? TASK_RUNNING : TASK_UNINTERRUPTIBLE;

	if (!blocked)
		result("fail", name, "waiter never seen blocked on the lock");
	else if (c->running && woke != 0)
		/* A running task's wake-up matches nothing, parked or not. */
		result("fail", name, "wake_up_process() of a running lock waiter returned %d, expected 0",
		       woke);
	else if (c->running && !blocked_after_wake)
		result("fail", name, "the wake-up let the waiter leave the lock wait early");
	else if (c->running && c->state_after_lock != TASK_RUNNING)
		result("fail", name, "state 0x%x after the lock, expected TASK_RUNNING",
		       c->state_after_lock);
	else if (!c->running && do_wake && woke != 1)
		result("fail", name, "wake_up_process() of the blocked waiter returned %d", woke);
	else if (!c->running && do_wake && c->state_after_unlock != TASK_RUNNING)
		result("fail", name,
		       "wake-up lost: state 0x%x after the lock, 0x%x after unlock, slept %s",
		       c->state_after_lock, c->state_after_unlock,
		       c->sleep_left == 0 ? "the full 1 s timeout" : "but was woken");
	else if (!do_wake && c->state_after_lock != want)
		result("fail", name, "state not kept: 0x%x after the lock, expected 0x%x",
		       c->state_after_lock, want);
	else
		result("pass", name, "state 0x%x after the lock, 0x%x after unlock%s",
		       c->state_after_lock, c->state_after_unlock,
		       do_wake ? (c->running ? ", wake_up_process() returned 0" :
				  ", wake_up_process() returned 1") : "");
}

/*
 * @rw: rwlock_t instead of spinlock_t; @preempt_owner: a FIFO hog takes
 * the owner's CPU, so the waiter sleeps instead of spinning on the owner;
 * @do_wake: wake the waiter while it is blocked; @running: the waiter
 * takes the lock in TASK_RUNNING instead of TASK_UNINTERRUPTIBLE.
 */
static void wake_one(const char *name, bool rw, bool preempt_owner, bool do_wake,
		     bool running)
{
	struct wake_ctx *c;
	struct task_struct *h, *w, *hog = NULL;
	int woke = -1, blocked = 0, i;
	bool blocked_after_wake = false;

	c = test_ctx_alloc(name, sizeof(*c), true,
			   "needs PREEMPT_RT (spinlock_t does not sleep here)");
	if (!c)
		return;
	init_completion(&c->held);
	init_completion(&c->w_done);
	init_completion(&c->h_done);
	init_completion(&c->hog_done);

	c->rw = rw;
	c->running = running;
	h = make_thread(wake_holder, c, "hx_wake_own", cpu_a, 0);
	w = make_thread(wake_waiter, c, "hx_wake_wait", cpu_b, 0);
	if (IS_ERR(h) || IS_ERR(w)) {
		result("fail", name, "kthread_create failed");
		return;		/* leaks; cannot happen in the test VM */
	}
	wake_up_process(h);
	if (!wait_ms(&c->held, 5000)) {
		result("fail", name, "owner never took the lock");
		goto out;
	}
	if (preempt_owner) {
		hog = make_thread(wake_hog, c, "hx_wake_hog", cpu_a, HOG_RTPRIO);
		if (IS_ERR(hog)) {
			hog = NULL;
			result("fail", name, "kthread_create failed");
			goto out;
		}
		wake_up_process(hog);
	}
	wake_up_process(w);
	/* up to 2 s for the waiter to block (and, if asked, leave the CPU) */
	for (i = 0; i < 200 && !blocked; i++) {
		msleep(10);
		blocked = blocked_on_lock(w, preempt_owner);
	}
	if (blocked && do_wake) {
		msleep(10);
		woke = wake_up_process(w);
		msleep(10);
		blocked_after_wake = blocked_on_lock(w, false);
	}
	msleep(20);
	WRITE_ONCE(c->hog_stop, true);
	WRITE_ONCE(c->release, true);
	if (!wait_ms(&c->w_done, 10000) || !wait_ms(&c->h_done, 10000)) {
		struct task_struct *all[] = { h, w, hog };

		result("fail", name, "waiter or owner did not finish within 10 s");
		hang_report(all, hog ? 3 : 2);
		return;
	}

	wake_verdict(name, c, do_wake, blocked, woke, blocked_after_wake);
out:
	WRITE_ONCE(c->hog_stop, true);
	WRITE_ONCE(c->release, true);
	if (hog) {
		wait_for_completion(&c->hog_done);
		put_task_struct(hog);
	}
	put_task_struct(h);
	put_task_struct(w);
	kfree(c);
}

static void test_wake(void)
{
	wake_one("wake/spinlock_keeps_state", false, false, false, false);
	wake_one("wake/spinlock_wakeup_not_lost", false, false, true, false);
	wake_one("wake/spinlock_wakeup_not_lost_owner_preempted", false, true, true, false);
	wake_one("wake/spinlock_running_wakeup_ignored", false, true, true, true);
	wake_one("wake/rwlock_keeps_state", true, false, false, false);
	wake_one("wake/rwlock_wakeup_not_lost", true, false, true, false);
	wake_one("wake/rwlock_wakeup_not_lost_owner_preempted", true, true, true, false);
	wake_one("wake/rwlock_running_wakeup_ignored", true, true, true, true);
}

/* ------------------------------------------------------------------ */
/* pi: priority inheritance through each lock type                     */

/* How a pi case runs and what it expects (pi_one()'s @flags). */
#define PI_SLEEPABLE	BIT(0)	/* the owner may sleep while holding */
#define PI_BOOST	BIT(1)	/* the owner must be boosted */
#define PI_NEEDS_RT	BIT(2)	/* only PREEMPT_RT has PI for this type */
#define PI_SAME_CPU	BIT(3)	/* per-CPU lock: both threads on cpu_a */
#define PI_PINNED	BIT(4)	/* on RT the owner cannot migrate */

struct pi_ctx {
	struct completion held, l_done, h_done;
	bool sleepable;		/* the owner may sleep while holding */
	bool boost_expected;
	bool migratable;	/* the owner could migrate while holding */
	int l_min, l_after, l_normal;
	ktime_t t_rel, t_acq;
};

/*
 * The owner holds the lock until it sees itself boosted to the waiter's
 * priority (when a boost is expected), else for a fixed 300 ms; at most
 * 3 s.  It records the best priority it ran at.
 */
static void pi_hold(struct pi_ctx *c)
{
	ktime_t end = ktime_add_ms(ktime_get(), c->boost_expected ? 3000 : 300);
	int p;

	c->l_min = current->prio;
#ifdef CONFIG_SMP
	c->migratable = !current->migration_disabled;
#endif
	while (ktime_before(ktime_get(), end)) {
		p = READ_ONCE(current->prio);
		if (p < c->l_min)
			c->l_min = p;
		if (c->boost_expected && p <= KPRIO(HIGH_RTPRIO))
			break;
		if (c->sleepable)
			usleep_range(500, 1000);
		else
			cpu_relax();
	}
}

/*
 * One lock per case; the owner (low) and waiter (high) thread functions
 * take and release it in straight-line code (sparse checks the balance).
 */
#define PI_CASE(name, lk, lk_lock, lk_unlock, wt_lock, wt_unlock)	\
static int pi_low_##name(void *arg)					\
{									\
	struct pi_ctx *c = arg;						\
									\
	lk_lock(lk);							\
	complete(&c->held);						\
	pi_hold(c);							\
	c->t_rel = ktime_get();						\
	lk_unlock(lk);							\
	c->l_after = current->prio;					\
	kthread_complete_and_exit(&c->l_done, 0);			\
}									\
static int pi_high_##name(void *arg)					\
{									\
	struct pi_ctx *c = arg;						\
									\
	wait_for_completion(&c->held);					\
	wt_lock(lk);							\
	c->t_acq = ktime_get();						\
	wt_unlock(lk);							\
	kthread_complete_and_exit(&c->h_done, 0);			\
}

static DEFINE_SPINLOCK(pi_spin);
static DEFINE_RWLOCK(pi_rw);
static DEFINE_MUTEX(pi_mutex);
static DECLARE_RWSEM(pi_rwsem);

PI_CASE(spin, &pi_spin, spin_lock, spin_unlock, spin_lock, spin_unlock)
PI_CASE(rw_ww, &pi_rw, write_lock, write_unlock, write_lock, write_unlock)
PI_CASE(rw_wr, &pi_rw, write_lock, write_unlock, read_lock, read_unlock)
PI_CASE(rw_rw, &pi_rw, read_lock, read_unlock, write_lock, write_unlock)
PI_CASE(mutex, &pi_mutex, mutex_lock, mutex_unlock, mutex_lock, mutex_unlock)
PI_CASE(rwsem_ww, &pi_rwsem, down_write, up_write, down_write, up_write)
PI_CASE(rwsem_wr, &pi_rwsem, down_write, up_write, down_read, up_read)
PI_CASE(rwsem_rw, &pi_rwsem, down_read, up_read, down_write, up_write)
static DEFINE_PER_CPU(local_lock_t, pi_local) = INIT_LOCAL_LOCK(pi_local);
PI_CASE(local, &pi_local, local_lock, local_unlock, local_lock, local_unlock)
#ifdef CONFIG_RT_MUTEXES
static DEFINE_RT_MUTEX(pi_rtm);
PI_CASE(rtmutex, &pi_rtm, rt_mutex_lock, rt_mutex_unlock, rt_mutex_lock,
	rt_mutex_unlock)
#endif

/*
 * @flags: PI_*.  Without PI_BOOST the owner is a reader, which cannot be
 * boosted; the waiting writer must get the lock within 2 s of the release.
 */
static void pi_one(const char *name, int (*low)(void *), int (*high)(void *),
		   unsigned int flags)
{
	bool boost = flags & PI_BOOST;
	bool pinned_expected = IS_ENABLED(CONFIG_SMP) && RT_KERNEL &&
			       (flags & PI_PINNED);
	struct pi_ctx *c;
	struct task_struct *l, *h;
	s64 wait_us;

	c = test_ctx_alloc(name, sizeof(*c), flags & PI_NEEDS_RT,
			   "needs PREEMPT_RT (no priority inheritance here)");
	if (!c)
		return;
	init_completion(&c->held);
	init_completion(&c->l_done);
	init_completion(&c->h_done);
	c->sleepable = flags & PI_SLEEPABLE;
	c->boost_expected = boost;

	l = make_thread(low, c, "hx_pi_low", cpu_a, LOW_RTPRIO);
	h = make_thread(high, c, "hx_pi_high",
			flags & PI_SAME_CPU ? cpu_a : cpu_b, HIGH_RTPRIO);
	if (IS_ERR(l) || IS_ERR(h)) {
		result("fail", name, "kthread_create failed");
		return;
	}
	c->l_normal = l->normal_prio;
	wake_up_process(l);
	wake_up_process(h);
	if (!wait_ms(&c->l_done, 15000) || !wait_ms(&c->h_done, 15000)) {
		struct task_struct *all[] = { l, h };

		result("fail", name, "owner or waiter did not finish within 15 s");
		hang_report(all, 2);
		return;
	}
	wait_us = ktime_us_delta(c->t_acq, c->t_rel);

	if (boost && c->l_min != KPRIO(HIGH_RTPRIO))
		result("fail", name,
		       "owner not boosted: best prio %d while the waiter (prio %d) waited, own prio %d",
		       c->l_min, KPRIO(HIGH_RTPRIO), c->l_normal);
	else if (pinned_expected && c->migratable)
		result("fail", name, "owner could migrate while holding the lock");
	else if (c->l_after != c->l_normal)
		result("fail", name, "owner prio %d after unlock, expected its own %d",
		       c->l_after, c->l_normal);
	else if (!boost && wait_us > 2 * USEC_PER_SEC)
		result("fail", name, "waiting writer got the lock %lld us after the readers left",
		       wait_us);
	else if (boost)
		result("pass", name, "owner prio %d -> %d while the waiter waited -> %d after unlock",
		       c->l_normal, c->l_min, c->l_after);
	else
		result("pass", name,
		       "reader owner ran at prio %d (own %d: readers are not boosted); writer got the lock %lld us after the release",
		       c->l_min, c->l_normal, wait_us);
	put_task_struct(l);
	put_task_struct(h);
	kfree(c);
}

static void test_pi(void)
{
	const unsigned int rt_spin = PI_BOOST | PI_NEEDS_RT | PI_PINNED;
	const unsigned int rt_sleep = PI_SLEEPABLE | PI_BOOST | PI_NEEDS_RT;

	pi_one("pi/spinlock", pi_low_spin, pi_high_spin, rt_spin);
	pi_one("pi/rwlock_writer_owner_writer_waits", pi_low_rw_ww, pi_high_rw_ww, rt_spin);
	pi_one("pi/rwlock_writer_owner_reader_waits", pi_low_rw_wr, pi_high_rw_wr, rt_spin);
	pi_one("pi/rwlock_reader_owner_writer_waits", pi_low_rw_rw, pi_high_rw_rw, PI_PINNED);
	pi_one("pi/local_lock_same_cpu", pi_low_local, pi_high_local,
	       rt_spin | PI_SAME_CPU);
	pi_one("pi/mutex", pi_low_mutex, pi_high_mutex, rt_sleep);
	pi_one("pi/rwsem_writer_owner_writer_waits", pi_low_rwsem_ww, pi_high_rwsem_ww, rt_sleep);
	pi_one("pi/rwsem_writer_owner_reader_waits", pi_low_rwsem_wr, pi_high_rwsem_wr, rt_sleep);
	pi_one("pi/rwsem_reader_owner_writer_waits", pi_low_rwsem_rw, pi_high_rwsem_rw,
	       PI_SLEEPABLE);
#ifdef CONFIG_RT_MUTEXES
	pi_one("pi/rt_mutex", pi_low_rtmutex, pi_high_rtmutex, PI_SLEEPABLE | PI_BOOST);
#else
	result("skip", "pi/rt_mutex", "CONFIG_RT_MUTEXES is off");
#endif
}

/* ------------------------------------------------------------------ */
/* fair: a writer is not starved by a stream of readers                */

#define FAIR_READERS	4
#define FAIR_BOUND_MS	5000

struct fair_ctx {
	struct completion w_done, go;
	bool stop;
	bool sleepable;
	atomic_t reads, readers_in, overlaps;
	s64 w_wait_us;
};

static DEFINE_RWLOCK(fair_rw);
static DECLARE_RWSEM(fair_rwsem);

/* Inside the read side: count overlap with other readers, hold ~200 us. */
static void fair_read_body(struct fair_ctx *c)
{
	if (atomic_inc_return(&c->readers_in) > 1)
		atomic_inc(&c->overlaps);
	udelay(200);
	atomic_dec(&c->readers_in);
	atomic_inc(&c->reads);
}

#define FAIR_CASE(name, lk, r_lock, r_unlock, w_lock, w_unlock)		\
static int fair_reader_##name(void *arg)				\
{									\
	struct fair_ctx *c = arg;					\
	ktime_t end = ktime_add_ms(ktime_get(), 3 * FAIR_BOUND_MS);	\
									\
	wait_for_completion(&c->go);					\
	while (!READ_ONCE(c->stop) && ktime_before(ktime_get(), end)) {	\
		r_lock(lk);						\
		fair_read_body(c);					\
		r_unlock(lk);						\
		cond_resched();						\
	}								\
	return 0;							\
}									\
static int fair_writer_##name(void *arg)				\
{									\
	struct fair_ctx *c = arg;					\
	ktime_t t0;							\
									\
	wait_for_completion(&c->go);					\
	msleep(100);	/* the readers are streaming by now */		\
	t0 = ktime_get();						\
	w_lock(lk);							\
	c->w_wait_us = ktime_us_delta(ktime_get(), t0);			\
	w_unlock(lk);							\
	WRITE_ONCE(c->stop, true);					\
	kthread_complete_and_exit(&c->w_done, 0);			\
}

FAIR_CASE(rwlock, &fair_rw, read_lock, read_unlock, write_lock, write_unlock)
FAIR_CASE(rwsem, &fair_rwsem, down_read, up_read, down_write, up_write)

static void fair_one(const char *name, int (*reader)(void *), int (*writer)(void *))
{
	struct fair_ctx *c;
	struct task_struct *r[FAIR_READERS], *w;
	int i;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c) {
		result("fail", name, "no memory");
		return;
	}
	init_completion(&c->go);
	init_completion(&c->w_done);
	for (i = 0; i < FAIR_READERS; i++) {
		r[i] = kthread_run(reader, c, "hx_fair_r%d", i);
		if (IS_ERR(r[i])) {
			result("fail", name, "kthread_run failed");
			return;
		}
		get_task_struct(r[i]);
	}
	w = make_thread(writer, c, "hx_fair_w", -1, 0);
	if (IS_ERR(w)) {
		result("fail", name, "kthread_create failed");
		return;
	}
	wake_up_process(w);
	complete_all(&c->go);
	if (!wait_ms(&c->w_done, 4 * FAIR_BOUND_MS)) {
		result("fail", name, "writer starved: no write lock after %d ms",
		       4 * FAIR_BOUND_MS);
		WRITE_ONCE(c->stop, true);
		hang_report(&w, 1);
		return;
	} else if (c->w_wait_us > FAIR_BOUND_MS * USEC_PER_MSEC) {
		result("fail", name, "writer waited %lld us (bound %d ms) behind %d readers",
		       c->w_wait_us, FAIR_BOUND_MS, FAIR_READERS);
	} else {
		result("pass", name,
		       "writer waited %lld us behind %d streaming readers (%d read sections, %d overlapping)",
		       c->w_wait_us, FAIR_READERS, atomic_read(&c->reads),
		       atomic_read(&c->overlaps));
	}
	WRITE_ONCE(c->stop, true);
	for (i = 0; i < FAIR_READERS; i++) {
		kthread_stop(r[i]);
		put_task_struct(r[i]);
	}
	put_task_struct(w);
	kfree(c);
}

/*
 * Readers that pass a waiting writer.  rwlock_t read sections nest (the
 * kernel relies on it: a softirq or a nested call takes a read lock its
 * task already holds), so a reader that holds a rwlock_t for read, or runs
 * with bottom halves off, must get in while a writer waits for the readers
 * inside, or the two wait for each other forever.  A new reader in process
 * context still queues behind the writer.
 */
#define NEST_WAIT_MS	2000

struct nest_ctx {
	struct completion r_held, r_nested, r_done;
	struct completion w_done, f_in, f_done, s_in, s_done;
	bool r_go, r_release;
};

static DEFINE_RWLOCK(nest_rw);

/* A read section must not sleep: poll @flag, for at most 10 s. */
static void nest_spin_until(bool *flag)
{
	ktime_t end = ktime_add_ms(ktime_get(), 10 * MSEC_PER_SEC);

	while (!READ_ONCE(*flag) && ktime_before(ktime_get(), end))
		cpu_relax();
}

static int nest_reader(void *arg)
{
	struct nest_ctx *c = arg;

	read_lock(&nest_rw);
	complete(&c->r_held);
	nest_spin_until(&c->r_go);
	read_lock(&nest_rw);		/* the writer waits for us: must not block */
	complete(&c->r_nested);
	read_unlock(&nest_rw);
	nest_spin_until(&c->r_release);
	read_unlock(&nest_rw);
	kthread_complete_and_exit(&c->r_done, 0);
}

static int nest_writer(void *arg)
{
	struct nest_ctx *c = arg;

	write_lock(&nest_rw);
	write_unlock(&nest_rw);
	kthread_complete_and_exit(&c->w_done, 0);
}

static int nest_fresh_reader(void *arg)
{
	struct nest_ctx *c = arg;

	read_lock(&nest_rw);
	complete(&c->f_in);
	read_unlock(&nest_rw);
	kthread_complete_and_exit(&c->f_done, 0);
}

static int nest_bh_reader(void *arg)
{
	struct nest_ctx *c = arg;

	local_bh_disable();
	read_lock(&nest_rw);
	complete(&c->s_in);
	read_unlock(&nest_rw);
	local_bh_enable();
	kthread_complete_and_exit(&c->s_done, 0);
}

/* Wait until @t sleeps in a lock wait (at most NEST_WAIT_MS); false if not. */
static bool nest_sees_lock_wait(struct task_struct *t)
{
	ktime_t end = ktime_add_ms(ktime_get(), NEST_WAIT_MS);

	do {
		if (READ_ONCE(t->__state) == TASK_RTLOCK_WAIT)
			return true;
		msleep(5);
	} while (ktime_before(ktime_get(), end));
	return false;
}

static struct task_struct *nest_start(int (*fn)(void *), struct nest_ctx *c,
				      const char *name)
{
	struct task_struct *t = make_thread(fn, c, name, -1, 0);

	if (!IS_ERR(t))
		wake_up_process(t);
	return t;
}

/* True once thread @t (if it was started at all) signalled @done. */
static bool nest_finished(struct task_struct *t, struct completion *done)
{
	return IS_ERR_OR_NULL(t) || wait_ms(done, NEST_WAIT_MS);
}

static void nest_init(struct nest_ctx *c)
{
	init_completion(&c->r_held);
	init_completion(&c->r_nested);
	init_completion(&c->r_done);
	init_completion(&c->w_done);
	init_completion(&c->f_in);
	init_completion(&c->f_done);
	init_completion(&c->s_in);
	init_completion(&c->s_done);
}

/* @bh: 1 got in, 0 blocked, -1 not tried (the nested reader never got in). */
static void nest_report(bool fresh_early, bool nested, int bh)
{
	if (fresh_early)
		result("fail", "fair/rwlock_new_reader_waits", "a new reader got in while a writer waited");
	else
		result("pass", "fair/rwlock_new_reader_waits", "a new reader queued behind the waiting writer");
	if (nested)
		result("pass", "fair/rwlock_nested_reader", "nested read_lock() passed the waiting writer");
	else
		result("fail", "fair/rwlock_nested_reader",
		       "nested read_lock() blocked behind a writer that waits for it: deadlock");
	if (bh > 0)
		result("pass", "fair/rwlock_bh_reader", "read_lock() with BHs off passed the waiting writer");
	else if (bh == 0)
		result("fail", "fair/rwlock_bh_reader",
		       "read_lock() with BHs off blocked behind the waiting writer for %d ms",
		       NEST_WAIT_MS);
	else
		result("fail", "fair/rwlock_bh_reader", "not tried: the nested reader is stuck");
}

static void test_fair_nested(void)
{
	struct task_struct *t[4] = { };
	bool fresh_early, nested, done;
	int bh = -1;
	struct nest_ctx *c;
	int i;

	c = test_ctx_alloc("fair/rwlock_nested_reader", sizeof(*c), true,
			   "non-RT rwlock_t readers queue behind a writer in process context");
	if (!c)
		return;
	nest_init(c);
	t[0] = nest_start(nest_reader, c, "hx_nest_r");
	if (IS_ERR(t[0]) || !wait_ms(&c->r_held, NEST_WAIT_MS)) {
		result("fail", "fair/rwlock_nested_reader", "the reader did not start");
		return;
	}
	t[1] = nest_start(nest_writer, c, "hx_nest_w");
	/* Without a waiting writer the checks below would prove nothing. */
	if (IS_ERR(t[1]) || !nest_sees_lock_wait(t[1]))
		result("fail", "fair/rwlock_writer_waits",
		       "the writer was not seen waiting for the reader within %d ms",
		       NEST_WAIT_MS);
	t[2] = nest_start(nest_fresh_reader, c, "hx_nest_f");
	fresh_early = !IS_ERR(t[2]) && wait_ms(&c->f_in, 300);
	WRITE_ONCE(c->r_go, true);
	nested = wait_ms(&c->r_nested, NEST_WAIT_MS);
	if (nested) {
		t[3] = nest_start(nest_bh_reader, c, "hx_nest_s");
		bh = !IS_ERR(t[3]) && wait_ms(&c->s_in, NEST_WAIT_MS);
	}
	WRITE_ONCE(c->r_release, true);
	nest_report(fresh_early, nested, bh);
	done = nest_finished(t[0], &c->r_done) && nest_finished(t[1], &c->w_done) &&
	       nest_finished(t[2], &c->f_done) && nest_finished(t[3], &c->s_done);
	if (!done) {
		result("fail", "fair/rwlock_nested_threads", "threads did not finish");
		hang_report(t, ARRAY_SIZE(t));
		return;
	}
	for (i = 0; i < ARRAY_SIZE(t); i++)
		if (!IS_ERR_OR_NULL(t[i]))
			put_task_struct(t[i]);
	kfree(c);
}

static void test_fair(void)
{
	fair_one("fair/rwlock_writer_not_starved", fair_reader_rwlock, fair_writer_rwlock);
	fair_one("fair/rwsem_writer_not_starved", fair_reader_rwsem, fair_writer_rwsem);
	test_fair_nested();
}

/* ------------------------------------------------------------------ */
/* ww: deadlock resolution under many contexts                         */

#define WW_LOCKS	16
#define WW_THREADS	8
#define WW_ROUNDS	150
#define WW_MAX_HOLD	8
#define WW_BOUND_MS	90000

static DEFINE_WW_CLASS(hx_ww_class);
static DEFINE_WD_CLASS(hx_wd_class);

struct ww_shared {
	struct ww_mutex locks[WW_LOCKS];
	atomic_t holders[WW_LOCKS];
	struct ww_class *class;
	atomic_t rounds, deadlks, doubles, errors, running;
	struct completion done;
	ktime_t end;
};

/* What a context is doing, for the hang report. */
struct ww_thread {
	struct ww_shared *s;
	u32 seed;
	struct ww_acquire_ctx *ctx;	/* while in a round */
	int waiting;			/* lock index being taken, or -1 */
	bool held[WW_LOCKS];
};

struct ww_run {
	struct ww_shared s;
	struct ww_thread th[WW_THREADS];
	struct task_struct *tasks[WW_THREADS];
};

/* The task owning @lock, read racily for the hang report. */
static int ww_lock_owner_pid(struct ww_mutex *lock)
{
	struct task_struct *owner;

#ifdef CONFIG_PREEMPT_RT
	owner = (struct task_struct *)((unsigned long)READ_ONCE(lock->base.rtmutex.owner) & ~1UL);
#else
	owner = (struct task_struct *)(atomic_long_read(&lock->base.owner) & ~0x07UL);
#endif
	return owner ? owner->pid : 0;
}

static void ww_unlock_all(struct ww_shared *s, bool *held)
{
	int i;

	for (i = 0; i < WW_LOCKS; i++) {
		if (held[i]) {
			ww_mutex_unlock(&s->locks[i]);
			held[i] = false;
		}
	}
}

/* One round: lock @n locks in the order of @order, backing off on -EDEADLK. */
static int ww_round(struct ww_thread *t, const int *order, int n)
{
	struct ww_shared *s = t->s;
	struct ww_acquire_ctx ctx;
	bool *held = t->held;
	int contended = -1;
	int i, err = 0, idx;

	ww_acquire_init(&ctx, s->class);
	WRITE_ONCE(t->ctx, &ctx);
retry:
	for (i = 0; i < n; i++) {
		idx = order[i];
		if (idx == contended)
			continue;	/* taken by ww_mutex_lock_slow() below */
		WRITE_ONCE(t->waiting, idx);
		err = ww_mutex_lock(&s->locks[idx], &ctx);
		WRITE_ONCE(t->waiting, -1);
		if (!err) {
			held[idx] = true;
			continue;
		}
		if (err != -EDEADLK) {
			atomic_inc(&s->errors);
			goto out;
		}
		atomic_inc(&s->deadlks);
		ww_unlock_all(s, held);
		if (ktime_after(ktime_get(), s->end))
			goto out;
		WRITE_ONCE(t->waiting, idx);
		ww_mutex_lock_slow(&s->locks[idx], &ctx);
		WRITE_ONCE(t->waiting, -1);
		held[idx] = true;
		contended = idx;
		goto retry;
	}
	ww_acquire_done(&ctx);
	/* Everything held: nobody else may hold any of them. */
	for (i = 0; i < n; i++)
		if (atomic_inc_return(&s->holders[order[i]]) != 1)
			atomic_inc(&s->doubles);
	udelay(20);
	for (i = 0; i < n; i++)
		atomic_dec(&s->holders[order[i]]);
	err = 0;
out:
	ww_unlock_all(s, held);
	WRITE_ONCE(t->ctx, NULL);
	ww_acquire_fini(&ctx);
	return err;
}

static int ww_worker(void *arg)
{
	struct ww_thread *t = arg;
	struct ww_shared *s = t->s;
	struct rnd_state rnd;
	int order[WW_LOCKS];
	int round, i, j, n, tmp;

	prandom_seed_state(&rnd, t->seed);
	for (round = 0; round < WW_ROUNDS; round++) {
		if (ktime_after(ktime_get(), s->end))
			break;
		for (i = 0; i < WW_LOCKS; i++)
			order[i] = i;
		for (i = WW_LOCKS - 1; i > 0; i--) {
			j = prandom_u32_state(&rnd) % (i + 1);
			tmp = order[i];
			order[i] = order[j];
			order[j] = tmp;
		}
		n = 2 + prandom_u32_state(&rnd) % (WW_MAX_HOLD - 1);
		if (ww_round(t, order, n))
			break;
		atomic_inc(&s->rounds);
		cond_resched();
	}
	if (atomic_dec_and_test(&s->running))
		complete(&s->done);
	return 0;
}

/* Which context @ctx belongs to: -1 for none, WW_THREADS for a stranger. */
static int ww_ctx_thread(struct ww_run *run, struct ww_acquire_ctx *ctx)
{
	int i;

	if (!ctx)
		return -1;
	for (i = 0; i < WW_THREADS; i++)
		if (READ_ONCE(run->th[i].ctx) == ctx)
			return i;
	return WW_THREADS;
}

/*
 * Who waits for which lock, who owns it, what each holds and whether it
 * was wounded: a deadlock shows as a cycle, and the older context of it
 * should have wounded (or made die) the younger one.
 */
static void ww_hang_report(struct ww_run *run)
{
	struct ww_acquire_ctx *ctx;
	struct ww_thread *t;
	char held[WW_LOCKS * 3 + 1];
	int i, j, len, w;

	for (i = 0; i < WW_THREADS; i++) {
		t = &run->th[i];
		ctx = READ_ONCE(t->ctx);
		w = READ_ONCE(t->waiting);
		len = 0;
		for (j = 0; j < WW_LOCKS; j++)
			if (t->held[j])
				len += scnprintf(held + len, sizeof(held) - len, " %d", j);
		held[len] = 0;
		pr_info("ww context %d (pid %d, prio %d, normal %d): waits for lock %d owned by pid %d (lock ctx of context %d), holds%s; stamp %lu acquired %u wounded %u\n",
			i, run->tasks[i]->pid, run->tasks[i]->prio,
			run->tasks[i]->normal_prio, w,
			w < 0 ? -1 : ww_lock_owner_pid(&run->s.locks[w]),
			w < 0 ? -2 : ww_ctx_thread(run, READ_ONCE(run->s.locks[w].ctx)),
			len ? held : " nothing",
			ctx ? ctx->stamp : 0, ctx ? ctx->acquired : 0,
			ctx ? ctx->wounded : 0);
	}
}

static void ww_one(const char *name, struct ww_class *class)
{
	struct ww_run *run;
	struct ww_shared *s;
	struct ww_thread *th;
	struct task_struct **tasks;
	int i, rounds;
	ktime_t t0;

	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!run) {
		result("fail", name, "no memory");
		return;
	}
	s = &run->s;
	th = run->th;
	tasks = run->tasks;
	for (i = 0; i < WW_LOCKS; i++)
		ww_mutex_init(&s->locks[i], class);
	s->class = class;
	init_completion(&s->done);
	atomic_set(&s->running, WW_THREADS);
	t0 = ktime_get();
	s->end = ktime_add_ms(t0, WW_BOUND_MS);
	for (i = 0; i < WW_THREADS; i++) {
		th[i].s = s;
		th[i].seed = 0x5eed0000 + i;
		th[i].waiting = -1;
		/* ww_rt: half of them SCHED_FIFO (RT orders contexts by priority first) */
		tasks[i] = make_thread(ww_worker, &th[i], "hx_ww", -1,
				       (ww_rt && (i & 1)) ? LOW_RTPRIO + i : 0);
		if (IS_ERR(tasks[i])) {
			result("fail", name, "kthread_create failed");
			return;
		}
	}
	for (i = 0; i < WW_THREADS; i++)
		wake_up_process(tasks[i]);
	if (!wait_ms(&s->done, WW_BOUND_MS + 30000)) {
		result("fail", name,
		       "%d of %d contexts still running after %d ms (deadlock?), %d rounds done, %d -EDEADLK backoffs",
		       atomic_read(&s->running), WW_THREADS, WW_BOUND_MS + 30000,
		       atomic_read(&s->rounds), atomic_read(&s->deadlks));
		ww_hang_report(run);
		hang_report(tasks, WW_THREADS);
		return;
	}
	rounds = atomic_read(&s->rounds);
	if (atomic_read(&s->doubles) || atomic_read(&s->errors) ||
	    rounds != WW_THREADS * WW_ROUNDS)
		result("fail", name,
		       "%d of %d rounds completed, %d locks held twice, %d unexpected errors, %d -EDEADLK backoffs",
		       rounds, WW_THREADS * WW_ROUNDS, atomic_read(&s->doubles),
		       atomic_read(&s->errors), atomic_read(&s->deadlks));
	else
		result("pass", name,
		       "%d contexts x %d rounds over %d locks in %lld ms, %d -EDEADLK backoffs, no lock held twice",
		       WW_THREADS, WW_ROUNDS, WW_LOCKS,
		       ktime_ms_delta(ktime_get(), t0), atomic_read(&s->deadlks));
	for (i = 0; i < WW_THREADS; i++)
		put_task_struct(tasks[i]);
	for (i = 0; i < WW_LOCKS; i++)
		ww_mutex_destroy(&s->locks[i]);
	kfree(run);
}

static void test_ww(void)
{
	unsigned int run;
	int failed;

	for (run = 0; run < max(ww_repeat, 1U); run++) {
		failed = n_failed;
		ww_one(ww_rt ? "ww/wound_wait_8_contexts_16_locks_half_fifo" :
		       "ww/wound_wait_8_contexts_16_locks", &hx_ww_class);
		ww_one(ww_rt ? "ww/wait_die_8_contexts_16_locks_half_fifo" :
		       "ww/wait_die_8_contexts_16_locks", &hx_wd_class);
		/* Hung contexts keep their locks: the next run would hang too. */
		if (n_failed != failed)
			break;
	}
}

/* ------------------------------------------------------------------ */

static int __init hx_rtlocks_init(void)
{
	cpu_a = cpumask_first(cpu_online_mask);
	cpu_b = cpumask_next(cpu_a, cpu_online_mask);
	if (cpu_b >= nr_cpu_ids)
		cpu_b = cpu_a;
	pr_info("start: tests=%s, PREEMPT_RT=%d, CPUs %d and %d\n", tests,
		RT_KERNEL, cpu_a, cpu_b);
	if (wanted("wake"))
		test_wake();
	if (wanted("pi"))
		test_pi();
	if (wanted("fair"))
		test_fair();
	if (wanted("ww"))
		test_ww();
	pr_info("done: %d failed%s\n", n_failed,
		pinned ? "; threads hung: the module stays loaded" : "");
	/* with hung threads running its code, the module must stay */
	return n_failed && !pinned ? -EIO : 0;
}

static void __exit hx_rtlocks_exit(void)
{
}

module_init(hx_rtlocks_init);
module_exit(hx_rtlocks_exit);
MODULE_DESCRIPTION("Harness: targeted PREEMPT_RT locking tests");
MODULE_LICENSE("GPL");
