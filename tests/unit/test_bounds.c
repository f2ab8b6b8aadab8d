/*
 * test_bounds.c: every bound kgtop reports contains the truth (issue 22).
 *
 * The property: a simulated group (sim.c) runs a random schedule of joins,
 * leaves, crashes, stalls and commits; kgtop's real tracker polls it
 * through its polling path (a snapshot of what DescribeGroups, OffsetFetch
 * and ListOffsets would answer, at a random interval and phase) and
 * derives its rebalance episodes.  For every episode it closed, the true
 * episodes it covers (those that began after the refresh before its first
 * sign and by its end) must lie within what it said: its rounds (exact, or
 * at least), its duration, the members' stopped member-seconds, the
 * partitions' unconsumed partition-seconds and the backlog they let pile
 * up (records produced meanwhile), each within [min, max] (max unknown:
 * no upper bound); an episode that covers no true one is a phantom.  It
 * runs KGTOP_BOUNDS_SCHEDULES schedules (10,000 by default) from
 * KGTOP_BOUNDS_SEED, prints the bounds' widths (median, p90) as TAP
 * comments, and fails on the first violations with the seed that shows
 * each.
 *
 * Then the same schedules with the coordinator's log read too, as
 * --trace log gives it: its "preparing", "stabilized", "assignment
 * received" and "now empty" lines, each handed to the tracker at the
 * first refresh after it was written (a log from Kafka 4.1 on, which
 * tells the leader's assignment): the rebalance's end event and every
 * retimed event must contain the truth.  And read so from a random time
 * on, as a stream kgtop starts at its end while a rebalance is under way:
 * the source says from when it reads (KG_OBS_LOG_FROM).  Not held yet,
 * and so not run by default: a log read later than that
 * (KGTOP_BOUNDS_LOG_DELAY=ms behind for every schedule;
 * KGTOP_BOUNDS_LOG_LATE=1, 0 to 3 s behind and half of them read from a
 * random time on; KGTOP_BOUNDS_LOG_FROM=ms): of 10,000 schedules 0 at 100
 * or 200 ms behind, 1 at 1 s, 7 at 2 s, 6 with 0 to 3 s and half of them
 * read from a random time on (mostly two rebalances polling saw as one,
 * the log not yet past the first when polling closed it; at 1 s a
 * formation kgtop first saw under way, its second round hidden between
 * two refreshes).  A retimed event is held to the true rebalances of the
 * span it gives (a later round read late can take in the next rebalance
 * polling saw with it).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/options.h"
#include "model/intern.h"
#include "model/obs.h"
#include "model/tracker.h"
#include "sim.h"
#include "util/util.h"

#define NBOUNDS 5
enum { B_DURATION, B_STOPPED, B_UNCONSUMED, B_BACKLOG, B_ROUNDS };
static const char *const bound_names[NBOUNDS] = { "duration (s)", "stopped (member-s)", "unconsumed (partition-s)",
						   "backlog (records)", "rounds" };

/* What kgtop said of one episode. */
typedef struct said {
	int64_t id;
	int64_t start_lo, start, end_lo, end;
	int rounds;
	bool rounds_min;
	kg_span d, stopped, unconsumed, backlog;
	/* its last retimed event (the coordinator's log timed it), nretimed 0 none */
	int nretimed;
	int rrounds;
	bool rrounds_min;
	kg_span rd;
	int64_t rstart_lo, rend; /* the episode as it retimed it (a later round read late can take in a rebalance more) */
} said;

/* The widths seen, per bound. */
typedef struct widths {
	double *v[NBOUNDS];
	size_t n[NBOUNDS], cap[NBOUNDS];
	size_t unbounded[NBOUNDS], exact[NBOUNDS], checked[NBOUNDS];
	size_t never_given; /* assignments the log told received, never given (a join before the write) */
} widths;

/* Keep a width. */
static void
width_add(widths *w, int b, double x)
{
	util_grow(&w->v[b], &w->cap[b], w->n[b] + 1, sizeof *w->v[b]);
	w->v[b][w->n[b]++] = x;
}

/* qsort: doubles. */
static int
dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y ? 1 : 0;
}

/* The q-quantile of a sorted array. */
static double
quantile(const double *v, size_t n, double q)
{
	return n == 0 ? 0 : v[(size_t)((double)(n - 1) * q)];
}

/* Check one bound: lo <= truth <= hi (hi < 0: none); the width kept. */
static bool
within(widths *w, int b, double scale, kg_span s, int64_t truth, sbuf *why, const char *what)
{
	bool ok = s.min <= truth && (s.max < 0 || truth <= s.max);
	w->checked[b]++;
	if (s.max < 0)
		w->unbounded[b]++;
	else
		width_add(w, b, (double)(s.max - s.min) / scale);
	if (s.max == s.min)
		w->exact[b]++;
	if (!ok)
		sbuf_addf(why, " %s %.3f not in [%.3f, %s%.3f]", what, (double)truth / scale, (double)s.min / scale,
			  s.max < 0 ? "inf " : "", (double)s.max / scale);
	return ok;
}

/* The kgtop episodes of one run, from the tracker's events and history. */
static void
collect(kg_tracker *t, const kg_evlist *ev, said **out, int *n, int *cap)
{
	size_t i;
	for (i = 0; i < ev->n; i++) {
		const kg_event *e = ev->v[i];
		const kg_episode *ep;
		said *x;
		int j;
		if (e->kind == KG_EV_RETIMED) {
			for (j = 0; j < *n && (*out)[j].id != e->episode; j++)
				;
			if (j < *n) {
				x = &(*out)[j];
				x->nretimed++;
				x->rrounds = e->round;
				x->rrounds_min = e->rounds_min;
				x->rd = e->duration;
				ep = history_episode(tracker_history(t), e->group, e->episode);
				if (ep != NULL) {
					x->rstart_lo = ep->start_lo_us;
					x->rend = ep->end_us;
				}
			}
			continue;
		}
		if (e->kind != KG_EV_REBALANCE_END)
			continue;
		ep = history_episode(tracker_history(t), e->group, e->episode);
		if (ep == NULL)
			continue;
		if (*n == *cap) {
			*cap = *cap ? *cap * 2 : 16;
			*out = xreallocarray(*out, (size_t)*cap, sizeof **out);
		}
		x = &(*out)[(*n)++];
		x->id = e->episode;
		x->start_lo = ep->start_lo_us;
		x->start = ep->start_us;
		x->end_lo = ep->end_lo_us;
		x->end = ep->end_us;
		x->rounds = e->round;
		x->rounds_min = e->rounds_min;
		x->d = e->duration;
		x->stopped = e->stopped_us;
		x->unconsumed = e->unconsumed_us;
		x->backlog = e->backlog;
		x->nretimed = 0;
	}
}

/* The log read in time, from a random time on (kgtop started with a rebalance under way: a stream starts at its end). */
static bool log_from_random;

/* The next of a schedule's own random numbers (the log's delay and start: the simulation's schedule stays). */
static uint64_t
log_rand(uint64_t *r, uint64_t n)
{
	*r = *r * 6364136223846793005ULL + 1442695040888963407ULL;
	return (*r >> 33) % n;
}

/*
 * The coordinator's lines read by now: those logged delay ago, from from on;
 * *next the first not read.  A log read from a time on says so once, at its
 * first read (*told), as kgtop's trace source does when it starts a stream
 * at its end.
 */
static void
log_read(const sim *s, int64_t delay, int64_t from, int *next, bool *told, kg_obsq *q)
{
	if (from > 0 && !*told && s->now >= from) {
		obsq_push(q, obs_new(KG_OBS_LOG_FROM, from, -1, "log"));
		*told = true;
	}
	for (; *next < s->nline && s->line[*next].at + delay <= s->now; (*next)++) {
		const sim_line *l = &s->line[*next];
		kg_obs *o;
		if (l->at < from)
			continue;
		o = obs_new((kg_obs_kind)l->kind, l->at, intern_group("sim-group"), "log");
		o->generation = l->generation;
		o->nmembers = l->nmembers;
		o->completing = l->completing;
		if (l->empty) {
			o->nmembers = 0;
			obs_text(o, "group is now empty");
		}
		obsq_push(q, o);
	}
}

/* KGTOP_BOUNDS_TRACE=seed: what a poll saw and what kgtop derived, on stderr. */
static void
trace_poll(const sim *s, const kg_snapshot *snap, const kg_evlist *ev)
{
	const kg_group *g = &snap->groups[0];
	size_t i;
	int k, p;
	fprintf(stderr, "poll %6.2f %-19s", (double)s->now / 1e6, state_name(g->state));
	for (k = 0; k < g->nmembers; k++) {
		fprintf(stderr, " %.6s[", g->members[k].member_id);
		for (p = 0; p < g->members[k].nassigned; p++)
			fprintf(stderr, "%s%d", p ? " " : "", g->members[k].assignment[p].partition);
		fprintf(stderr, "]");
	}
	fprintf(stderr, "  committed");
	for (p = 0; p < g->nparts; p++)
		fprintf(stderr, " %lld/%lld", (long long)g->parts[p].committed, (long long)g->parts[p].log_end);
	fprintf(stderr, "\n");
	for (i = 0; i < ev->n; i++) {
		sbuf b = { 0 };
		event_format(ev->v[i], &b);
		fprintf(stderr, "        %s\n", sbuf_str(&b));
		sbuf_free(&b);
	}
}

/* The true rebalances an episode covers: their span and what they cost. */
typedef struct truth {
	int cover;
	bool open;          /* one goes on */
	int64_t first, last; /* the first's start, the last's end */
	int64_t rounds, stopped, unc, backlog;
} truth;

/*
 * The true rebalances that began in (lo, hi]: with claimed, those no
 * episode covered before (marked now), open ones too; without, the ended
 * ones (a retimed span, which may take in one an episode covered already).
 */
static truth
covered(const sim *s, int64_t lo, int64_t hi, bool *claimed)
{
	truth t = { 0, false, INT64_MAX, 0, 0, 0, 0, 0 };
	int j;
	for (j = 0; j < s->nep; j++) {
		const sim_episode *e = &s->ep[j];
		if (e->start <= lo || e->start > hi || (claimed != NULL ? claimed[j] : e->end == 0))
			continue;
		if (claimed != NULL)
			claimed[j] = true;
		t.cover++;
		t.first = KG_MIN(t.first, e->start);
		t.last = KG_MAX(t.last, e->end);
		t.open |= e->end == 0;
		t.rounds += e->rounds;
		t.stopped += e->stopped;
		t.unc += e->unconsumed;
		t.backlog += e->backlog;
	}
	return t;
}

/*
 * One schedule: the simulation polled by the tracker; true if every
 * episode's bounds hold (the first failure's words in why).
 */
static bool
run(uint64_t seed, bool log, widths *w, sbuf *why)
{
	const char *tr = getenv("KGTOP_BOUNDS_TRACE");
	bool trace = tr != NULL && strtoull(tr, NULL, 10) == seed;
	sim s;
	kg_tracker *t;
	kg_tracker_config cfg;
	kg_evlist ev = { 0 };
	said *k = NULL;
	int nk = 0, ck = 0, i, j;
	bool ok = true, claimed[SIM_MAXEP] = { false };
	int64_t iv, next, delay = 0, from = 0;
	uint64_t refresh = 0, lr = seed ^ 0x9e3779b97f4a7c15ULL;
	int line = 0;
	bool told = false; /* the log's reader said from when it reads */
	kg_obsq q = { 0 };
	sim_init(&s, seed);
	if (log) {
		/* the broker's log tells syncs ("Assignment received", Kafka 4.1 on): it told one of another group */
		kg_obs *o = obs_new(KG_OBS_SYNCED, 0, intern_group("sim-other"), "log");
		o->generation = 1;
		obsq_push(&q, o);
		if (getenv("KGTOP_BOUNDS_LOG_LATE") != NULL) {
			/* not yet held (see the header): 0 to 3 s behind, and half of them read from a random time on */
			delay = (int64_t)log_rand(&lr, 301) * SIM_STEP;
			if (log_rand(&lr, 2))
				from = (int64_t)log_rand(&lr, (uint64_t)(s.horizon / 2 / SIM_STEP)) * SIM_STEP;
		}
		if (log_from_random)
			from = (int64_t)log_rand(&lr, (uint64_t)(s.horizon / 2 / SIM_STEP)) * SIM_STEP;
		if (getenv("KGTOP_BOUNDS_LOG_DELAY") != NULL) /* every schedule's log this many ms behind */
			delay = strtoll(getenv("KGTOP_BOUNDS_LOG_DELAY"), NULL, 10) * 1000;
		if (getenv("KGTOP_BOUNDS_LOG_FROM") != NULL)
			from = strtoll(getenv("KGTOP_BOUNDS_LOG_FROM"), NULL, 10) * 1000;
	}
	s.trace = trace;
	iv = (int64_t)(1 + sim_rand(&s, 4)) * 500000; /* 0.5 to 2 s */
	next = (int64_t)sim_rand(&s, (uint64_t)(iv / SIM_STEP)) * SIM_STEP;
	cfg = options_model_defaults();
	t = tracker_new(&cfg);
	while (s.now < s.horizon) {
		sim_step(&s);
		if (s.now >= next) {
			kg_snapshot *snap = sim_snapshot(&s, ++refresh, iv);
			if (log)
				log_read(&s, delay, from, &line, &told, &q);
			for (i = 0; trace && (size_t)i < q.n; i++)
				fprintf(stderr, "log  %6.2f kind %d generation %d\n", (double)q.v[i]->time_us / 1e6, (int)q.v[i]->kind,
					(int)q.v[i]->generation);
			tracker_apply(t, log ? &q : NULL, snap, &ev);
			if (trace)
				trace_poll(&s, snap, &ev);
			snapshot_unref(snap);
			collect(t, &ev, &k, &nk, &ck);
			evlist_clear(&ev);
			next += iv;
		}
	}
	for (i = 0; i < nk; i++) {
		const said *x = &k[i];
		/* a start the log timed is the true one's own: that one is covered */
		truth tc = covered(&s, x->start_lo > 0 ? x->start_lo - (x->start_lo == x->start) : INT64_MIN, x->end, claimed);
		int64_t first = tc.first, last = tc.last, rounds = tc.rounds, stopped = tc.stopped, unc = tc.unc,
			backlog = tc.backlog;
		int cover = tc.cover;
		bool open = tc.open, good = true;
		if (cover == 0) {
			sbuf_addf(why, " episode %lld [%.2f..%.2f, %.2f..%.2f] covers no true rebalance", (long long)x->id,
				  x->start_lo / 1e6, x->start / 1e6, x->end_lo / 1e6, x->end / 1e6);
			ok = false;
			continue;
		}
		if (open) {
			sbuf_addf(why, " episode %lld ended at %.2f while the true one goes on", (long long)x->id, x->end / 1e6);
			ok = false;
			continue;
		}
		w->checked[B_ROUNDS]++;
		if (x->rounds_min)
			w->unbounded[B_ROUNDS]++;
		else
			w->exact[B_ROUNDS]++;
		if (x->rounds_min ? rounds < x->rounds : rounds != x->rounds) {
			sbuf_addf(why, " rounds %lld, said %s%d", (long long)rounds, x->rounds_min ? ">=" : "", x->rounds);
			good = false;
		}
		good &= within(w, B_DURATION, 1e6, x->d, last - first, why, "duration");
		good &= within(w, B_STOPPED, 1e6, x->stopped, stopped, why, "stopped");
		good &= within(w, B_UNCONSUMED, 1e6, x->unconsumed, unc, why, "unconsumed");
		good &= within(w, B_BACKLOG, 1, x->backlog, backlog, why, "backlog");
		if (x->nretimed > 0) {
			/* what the late lines amended, against the true rebalances the amended span covers: the truth inside */
			truth rt = covered(&s, x->rstart_lo > 0 ? x->rstart_lo - 1 : INT64_MIN, x->rend, NULL);
			int64_t rfirst = rt.first, rlast = rt.last, rrounds = rt.rounds;
			if (x->rrounds_min ? rrounds < x->rrounds : rrounds != x->rrounds) {
				sbuf_addf(why, " rounds %lld, retimed %s%d", (long long)rrounds, x->rrounds_min ? ">=" : "",
					  x->rrounds);
				good = false;
			}
			if (rlast > 0)
				good &= within(w, B_DURATION, 1e6, x->rd, rlast - rfirst, why, "retimed duration");
		}
		if (!good) {
			sbuf_addf(why, " (episode %lld [%.2f..%.2f, %.2f..%.2f] of %d true from %.2f to %.2f)", (long long)x->id,
				  x->start_lo / 1e6, x->start / 1e6, x->end_lo / 1e6, x->end / 1e6, cover, first / 1e6,
				  last / 1e6);
			ok = false;
		}
	}
	if (trace) {
		for (j = 0; j < s.nep; j++)
			fprintf(stderr, "true episode %d: %.2f..%.2f rounds %d stopped %.3f unconsumed %.3f backlog %lld\n", j,
				s.ep[j].start / 1e6, s.ep[j].end / 1e6, s.ep[j].rounds, s.ep[j].stopped / 1e6,
				s.ep[j].unconsumed / 1e6, (long long)s.ep[j].backlog);
	}
	if (!ok) {
		char d[1024];
		sim_describe(&s, d, sizeof d);
		sbuf_addf(why, "; polled every %.1fs; %s", iv / 1e6, d);
		if (log)
			sbuf_addf(why, "; the log %.2fs behind, read from %.2fs", delay / 1e6, from / 1e6);
	}
	for (i = 1; i < s.nline; i++)
		w->never_given += s.line[i].completing && s.line[i - 1].kind == KG_OBS_SYNCED;
	obsq_clear(&q);
	free(q.v);
	free(k);
	free(ev.v);
	tracker_free(t);
	return ok;
}

/* Every bound of every schedule contains the truth, polled alone or with the coordinator's log read too; the widths said. */
static void
bounds(bool log)
{
	const char *e = getenv("KGTOP_BOUNDS_SCHEDULES"), *sd = getenv("KGTOP_BOUNDS_SEED");
	long n = e != NULL ? strtol(e, NULL, 10) : 10000;
	uint64_t seed0 = sd != NULL ? strtoull(sd, NULL, 10) : 22;
	widths w;
	int b, failed = 0;
	long i;
	struct timespec t0, t1;
	memset(&w, 0, sizeof w);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < n; i++) {
		sbuf why = { 0 };
		if (!run(seed0 + (uint64_t)i, log, &w, &why)) {
			if (failed++ < (getenv("KGTOP_BOUNDS_SHOW") ? atoi(getenv("KGTOP_BOUNDS_SHOW")) : 10))
				print_message("# seed %llu:%s\n", (unsigned long long)(seed0 + (uint64_t)i), sbuf_str(&why));
		}
		sbuf_free(&why);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("# %ld schedules%s in %.1f s, %d with a bound that excludes the truth\n", n,
		      !log ? "" : log_from_random ? " with the coordinator's log read from a random time on" : " with the coordinator's log read too",
		      (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, failed);
	print_message("# %zu assignments told received and never given (a member joined before they were written)\n",
		      w.never_given);
	for (b = 0; b < NBOUNDS; b++) {
		if (w.n[b] > 0) /* none measured of it (the rounds): qsort takes no NULL */
			qsort(w.v[b], w.n[b], sizeof *w.v[b], dcmp);
		if (b == B_ROUNDS)
			print_message("# %-26s %zu episodes: %zu exact, %zu at least\n", bound_names[b], w.checked[b], w.exact[b],
				      w.unbounded[b]);
		else
			print_message("# %-26s %zu episodes: width median %.3f, p90 %.3f, max %.3f; %zu exact, %zu without an upper bound\n",
				      bound_names[b], w.checked[b], quantile(w.v[b], w.n[b], 0.5), quantile(w.v[b], w.n[b], 0.9),
				      quantile(w.v[b], w.n[b], 1.0), w.exact[b], w.unbounded[b]);
		free(w.v[b]);
	}
	assert_int_equal(failed, 0);
}

/* Polled alone. */
static void
test_bounds_contain_truth(void **state)
{
	(void)state;
	bounds(false);
}

/* With the coordinator's log read too. */
static void
test_bounds_with_log(void **state)
{
	(void)state;
	bounds(true);
}

/* With the coordinator's log read too, in time, from a random time on (its reader said from when). */
static void
test_bounds_log_read_from(void **state)
{
	(void)state;
	log_from_random = true;
	bounds(true);
	log_from_random = false;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_contain_truth),
		cmocka_unit_test(test_bounds_with_log),
		cmocka_unit_test(test_bounds_log_read_from),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
