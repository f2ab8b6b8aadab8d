/*
 * metrics.c: the Prometheus exposition of what kgtop sees (see metrics.h).
 *
 * The counters live in an array indexed by interned group id: per group
 * and rebalance protocol, rebalances by trigger and a histogram of their
 * durations.  They are counted from KG_EV_REBALANCE_END, which carries the
 * episode's protocol, trigger (the cause learnt by its end) and duration;
 * a rebalance still open is not counted yet (kgtop_group_rebalancing says
 * it is open).  Series appear with a group's first rebalance.
 *
 * Rendering walks the family table in order; each row says how its
 * samples are walked (a sample per group, per group and verdict, per
 * member) and what they read (its value function, a field), or names a
 * function that writes them.  The labels every sample of a group starts with (cluster and
 * group, escaped) are written once per render into one buffer and copied
 * from there, which keeps a scrape of thousands of groups to a few
 * milliseconds.  Values are exact decimals (microseconds printed as
 * seconds), never a locale's.
 */
#include "config.h"

#include "report/metrics.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/intern.h"
#include "record/format.h"

/* The label values of the trigger: what started a rebalance, in the words alert rules use. */
typedef enum mtrigger {
	TRIG_JOIN,
	TRIG_LEAVE,
	TRIG_SESSION_TIMEOUT,
	TRIG_POLL_TIMEOUT,
	TRIG_STATIC_REPLACEMENT,
	TRIG_FENCED,
	TRIG_LEADER_REJOIN,
	TRIG_METADATA,
	TRIG_TIMEOUT,
	TRIG_UNKNOWN,
	TRIG_COUNT
} mtrigger;

static const char *const trigger_names[TRIG_COUNT] = {
	[TRIG_JOIN] = "join",
	[TRIG_LEAVE] = "leave",
	[TRIG_SESSION_TIMEOUT] = "session_timeout",
	[TRIG_POLL_TIMEOUT] = "poll_timeout",
	[TRIG_STATIC_REPLACEMENT] = "static_replacement",
	[TRIG_FENCED] = "fenced",
	[TRIG_LEADER_REJOIN] = "leader_rejoin",
	[TRIG_METADATA] = "metadata",
	[TRIG_TIMEOUT] = "timeout",
	[TRIG_UNKNOWN] = "unknown",
};

/* Upper bounds of the duration buckets, in microseconds, and as their le labels say them (+Inf follows). */
static const int64_t bucket_us[] = {
	100000, 500000, 1000000, 2500000, 5000000, 10000000, 30000000, 60000000, 120000000, 300000000, 600000000,
};
static const char *const bucket_le[] = { "0.1", "0.5", "1", "2.5", "5", "10", "30", "60", "120", "300", "600" };
#define NBUCKETS ((int)KG_ARRAY_LEN(bucket_us))

/* One group's counters under one rebalance protocol. */
typedef struct mproto {
	uint64_t by_trigger[TRIG_COUNT];
	uint64_t bucket[NBUCKETS]; /* not cumulative: the render sums them */
	uint64_t count;
	int64_t sum_us;
	/* what these rebalances cost, within the bounds each told: the sums of the lower bounds and of the
	 * upper ones (of those that had one: the others are counted in unbounded) */
	int64_t stopped_min_us, stopped_max_us;       /* member-microseconds stopped */
	int64_t unconsumed_min_us, unconsumed_max_us; /* partition-microseconds no member consumed */
	uint64_t unbounded;                           /* rebalances whose cost had no upper bound */
} mproto;

typedef struct mgroup {
	bool seen;
	mproto p[KG_PROTO_COUNT];
} mgroup;

struct kg_metrics {
	_Atomic int refs;
	mgroup *g; /* by interned group id */
	size_t cap;
};

/* ------------------------------------------------------------ counting */

/* The trigger label of a reason. */
static mtrigger
trigger_of(kg_reason r)
{
	switch (r) {
	case KG_REASON_JOINED:
		return TRIG_JOIN;
	case KG_REASON_GRACEFUL:
	case KG_REASON_LEFT:
		return TRIG_LEAVE;
	case KG_REASON_SESSION_TIMEOUT:
		return TRIG_SESSION_TIMEOUT;
	case KG_REASON_MAX_POLL:
		return TRIG_POLL_TIMEOUT;
	case KG_REASON_TIMEOUT:
		return TRIG_TIMEOUT;
	case KG_REASON_REPLACED:
		return TRIG_STATIC_REPLACEMENT;
	case KG_REASON_FENCED:
		return TRIG_FENCED;
	case KG_REASON_LEADER_REJOIN:
		return TRIG_LEADER_REJOIN;
	case KG_REASON_METADATA:
		return TRIG_METADATA;
	default:
		return TRIG_UNKNOWN;
	}
}

/* Empty counters. */
kg_metrics *
metrics_new(void)
{
	kg_metrics *m = xcalloc(1, sizeof *m);
	atomic_init(&m->refs, 1);
	return m;
}

/* Take a reference. */
kg_metrics *
metrics_ref(kg_metrics *m)
{
	if (m != NULL)
		atomic_fetch_add(&m->refs, 1);
	return m;
}

/* Drop a reference. */
void
metrics_unref(kg_metrics *m)
{
	if (m == NULL || atomic_fetch_sub(&m->refs, 1) != 1)
		return;
	free(m->g);
	free(m);
}

/*
 * The one figure a counter can take of a span: the measured value, or for
 * a span only bounded (a rebalance seen between two refreshes) its upper
 * bound, or with no upper bound its lower one; 0 when not known.
 */
static int64_t
span_value(kg_span v)
{
	if (v.max >= 0)
		return v.max;
	return v.min > 0 ? v.min : 0;
}

/* Count one ended rebalance. */
static void
count_episode(kg_metrics *m, const kg_event *e)
{
	mproto *p;
	int b;
	int64_t d = e->duration.min >= 0 ? span_value(e->duration) : e->duration_us > 0 ? e->duration_us : 0;
	if (e->group < 0)
		return;
	if ((size_t)e->group >= m->cap) {
		size_t old = m->cap, n = old ? old : 64;
		while (n <= (size_t)e->group)
			n *= 2;
		m->g = xreallocarray(m->g, n, sizeof *m->g);
		memset(m->g + old, 0, (n - old) * sizeof *m->g);
		m->cap = n;
	}
	m->g[e->group].seen = true;
	p = &m->g[e->group].p[(unsigned)e->proto < KG_PROTO_COUNT ? e->proto : KG_PROTO_UNKNOWN];
	p->by_trigger[trigger_of(e->reason)]++;
	for (b = 0; b < NBUCKETS && d > bucket_us[b]; b++)
		;
	if (b < NBUCKETS)
		p->bucket[b]++;
	p->count++;
	p->sum_us += d;
	p->stopped_min_us += KG_MAX(e->stopped_us.min, 0);
	p->unconsumed_min_us += KG_MAX(e->unconsumed_us.min, 0);
	if (e->stopped_us.max < 0 || e->unconsumed_us.max < 0) {
		p->unbounded++;
	} else {
		p->stopped_max_us += e->stopped_us.max;
		p->unconsumed_max_us += e->unconsumed_us.max;
	}
}

/* Count the rebalances that ended. */
bool
metrics_count(kg_metrics *m, const kg_evlist *events)
{
	size_t i;
	bool changed = false;
	for (i = 0; events != NULL && i < events->n; i++) {
		if (events->v[i]->kind == KG_EV_REBALANCE_END) {
			count_episode(m, events->v[i]);
			changed = true;
		}
	}
	return changed;
}

/* A copy with one reference. */
kg_metrics *
metrics_copy(const kg_metrics *m)
{
	kg_metrics *c = metrics_new();
	if (m->cap > 0) {
		c->g = xreallocarray(NULL, m->cap, sizeof *c->g);
		memcpy(c->g, m->g, m->cap * sizeof *c->g);
		c->cap = m->cap;
	}
	return c;
}

/* ------------------------------------------------------------ rendering */

/* What the families of one render share. */
typedef struct fam_ctx {
	sbuf *o;
	const kg_snapshot *s;           /* NULL: no snapshot yet */
	const kg_metrics *m;            /* NULL: no counters */
	const kg_metrics_ctx *ctx;
	sbuf pfx;                       /* label prefixes: the cluster's, then each group's */
	size_t cl_len;                  /* cluster="..." is pfx[0, cl_len) */
	size_t *g_off, *g_len;          /* by index in s->groups: group="..." */
	int32_t *counted;               /* group ids with counters, by name */
	int ncounted;
} fam_ctx;

/* How a family walks its samples: a shape and, in the row, what it reads. */
typedef enum fam_shape {
	FAM_EMIT,         /* a function of its own (emit) */
	FAM_GROUP,        /* a sample per group whose value is known (group_value) */
	FAM_GROUP_S,      /* likewise, microseconds as seconds */
	FAM_VERDICT,      /* a sample per group and verdict (verdict_value) */
	FAM_MEMBER_S,     /* a gauge per member, a kg_member_health field (off) in seconds, -1 unknown */
} fam_shape;

typedef struct family {
	const char *name;
	const char *type;
	const char *help;
	void (*emit)(fam_ctx *f, const struct family *fam);     /* FAM_EMIT */
	fam_shape shape;
	bool (*group_value)(const kg_group *g, int64_t *v);     /* FAM_GROUP, FAM_GROUP_S: false when not known */
	bool sparse;                                            /* FAM_GROUP: no sample for 0 (a group at rest) */
	int (*verdict_value)(const kg_group *g, int verdict);   /* FAM_VERDICT */
	size_t off;                                             /* FAM_MEMBER_S */
} family;

/*
 * A label value, escaped (backslash, quote, newline), valid UTF-8 (bad
 * bytes become U+FFFD), other controls and bidi overrides '?' (util_char_unsafe).
 */
static void
put_label_value(sbuf *o, const char *s)
{
	size_t n = s != NULL ? strlen(s) : 0, i = 0;
	while (i < n) {
		long cp;
		size_t k = util_utf8_decode(s + i, n - i, &cp);
		if (cp < 0)
			sbuf_adds(o, "\xef\xbf\xbd");
		else if (s[i] == '\\')
			sbuf_adds(o, "\\\\");
		else if (s[i] == '"')
			sbuf_adds(o, "\\\"");
		else if (s[i] == '\n')
			sbuf_adds(o, "\\n");
		else if (util_char_unsafe(cp))
			sbuf_addc(o, '?'); /* the one output rule: no controls nor bidi overrides, as in text */
		else
			sbuf_addn(o, s + i, k);
		i += k;
	}
}

/* ,name="value" (name="value" when first). */
static void
put_label(sbuf *o, const char *name, const char *value, bool first)
{
	sbuf_addf(o, "%s%s=\"", first ? "" : ",", name);
	put_label_value(o, value);
	sbuf_addc(o, '"');
}

/* Microseconds as seconds, exactly: 1.500000. */
static void
put_seconds(sbuf *o, int64_t us)
{
	if (us < 0) {
		sbuf_addc(o, '-');
		us = -us;
	}
	{
		/* the six decimals without printf (a scrape writes one per sample) */
		char frac[8];
		int64_t r = us % 1000000;
		int k;
		sbuf_addi(o, (long long)(us / 1000000));
		frac[0] = '.';
		for (k = 6; k >= 1; k--, r /= 10)
			frac[k] = (char)('0' + r % 10);
		sbuf_addn(o, frac, 7);
	}
}

/* name{group="..." for group index gi, name{cluster="..." for -1 (the cluster's own series). */
static void
sample_open(fam_ctx *f, const char *name, const char *suffix, int gi)
{
	sbuf_adds(f->o, name);
	sbuf_adds(f->o, suffix);
	sbuf_addc(f->o, '{');
	if (gi < 0)
		sbuf_addn(f->o, f->pfx.s, f->cl_len);
	else
		sbuf_addn(f->o, f->pfx.s + f->g_off[gi], f->g_len[gi]);
}

/* } value\n with an integer value. */
static void
sample_int(fam_ctx *f, int64_t v)
{
	sbuf_addn(f->o, "} ", 2);
	sbuf_addi(f->o, v);
	sbuf_addc(f->o, '\n');
}

/* } value\n with microseconds as seconds. */
static void
sample_seconds(fam_ctx *f, int64_t us)
{
	sbuf_adds(f->o, "} ");
	put_seconds(f->o, us);
	sbuf_addc(f->o, '\n');
}

/* A per-group gauge: one sample per group whose value is known (the row's group_value). */
static void
per_group(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		int64_t v;
		if (!fam->group_value(&f->s->groups[i], &v) || (fam->sparse && v == 0))
			continue;
		sample_open(f, fam->name, "", i);
		if (fam->shape == FAM_GROUP_S)
			sample_seconds(f, v);
		else
			sample_int(f, v);
	}
}

/* kgtop_build_info */
static void
emit_build_info(fam_ctx *f, const family *fam)
{
	sbuf_addf(f->o, "%s{version=\"%s\",record_format=\"%d\"} 1\n", fam->name, PACKAGE_VERSION, KG_RECORD_VERSION);
}

/* kgtop_snapshot_timestamp_seconds */
static void
emit_snapshot_time(fam_ctx *f, const family *fam)
{
	if (f->s == NULL)
		return;
	sample_open(f, fam->name, "", -1);
	sample_seconds(f, f->s->time_us);
}

/* True for the sources that are kgtop's own outputs (the recorder, the server), not inputs. */
static bool
source_is_output(const kg_source_health *h)
{
	return h->role == KG_ROLE_RECORDER;
}

/* kgtop_source_up */
static void
emit_source_up(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->nsources; i++) {
		const kg_source_health *h = &f->s->sources[i];
		if (source_is_output(h))
			continue;
		sample_open(f, fam->name, "", -1);
		put_label(f->o, "source", h->name, false);
		put_label(f->o, "role", src_role_name(h->role), false);
		sample_int(f, h->status == KG_SRC_OK);
	}
}

/* kgtop_source_last_success_timestamp_seconds */
static void
emit_source_last_ok(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->nsources; i++) {
		const kg_source_health *h = &f->s->sources[i];
		if (source_is_output(h) || h->last_ok_us <= 0)
			continue;
		sample_open(f, fam->name, "", -1);
		put_label(f->o, "source", h->name, false);
		sample_seconds(f, h->last_ok_us);
	}
}

/* kgtop_group_info: protocol and assignor as labels. */
static void
emit_group_info(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		const kg_group *g = &f->s->groups[i];
		if (g->proto == KG_PROTO_UNKNOWN && (g->assignor == NULL || !*g->assignor) && g->coordinator < 0 && !*group_type_text(g))
			continue; /* nothing known (a group only listed): no series */
		sample_open(f, fam->name, "", i);
		put_label(f->o, "protocol", proto_name(g->proto), false);
		put_label(f->o, "assignor", g->assignor, false);
		sbuf_adds(f->o, ",coordinator=\"");
		sbuf_addi(f->o, g->coordinator);
		sbuf_addc(f->o, '"');
		/* what it is (ListGroups v5), as its source named it; "" when no source said */
		put_label(f->o, "type", group_type_text(g), false);
		sample_int(f, 1);
	}
}

/*
 * kgtop_group_state: one sample per group, 1 with its state as the label
 * (not a 0 for each other state: at 10,000 groups that was 60,000 series
 * of zeros; kgtop_group_state{state="Empty"} == 1 selects as before).
 */
static void
emit_group_state(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		sample_open(f, fam->name, "", i);
		sbuf_adds(f->o, ",state=\"");
		sbuf_adds(f->o, state_name(f->s->groups[i].state));
		sbuf_addc(f->o, '"');
		sample_int(f, 1);
	}
}

/* Members of a group. */
static bool
v_members(const kg_group *g, int64_t *v)
{
	*v = g->nmembers;
	return true;
}

/* Partitions a group consumes. */
static bool
v_partitions(const kg_group *g, int64_t *v)
{
	*v = g->nparts;
	return true;
}

/* A group's lag, when known. */
static bool
v_lag(const kg_group *g, int64_t *v)
{
	*v = g->lag;
	return g->lag >= 0;
}

/* Partitions nobody consumes while the group should. */
static bool
v_orphaned(const kg_group *g, int64_t *v)
{
	*v = g->norphaned;
	return true;
}

/* 1 while a rebalance is open. */
static bool
v_rebalancing(const kg_group *g, int64_t *v)
{
	*v = g->sum.in_episode;
	return true;
}

/* 1 during a storm. */
static bool
v_storm(const kg_group *g, int64_t *v)
{
	*v = g->sum.storm;
	return true;
}

/* Duration of the last closed rebalance, when there was one. */
static bool
v_last_rebalance(const kg_group *g, int64_t *v)
{
	kg_span d = { g->sum.last_episode_min_us, g->sum.last_episode_max_us };
	if (g->sum.last_episode_us < 0)
		return false;
	*v = d.min >= 0 ? span_value(d) : g->sum.last_episode_us;
	return true;
}

/* A consumer group's group epoch, when a source gave it. */
static bool
v_group_epoch(const kg_group *g, int64_t *v)
{
	*v = g->group_epoch.value;
	return g->type == KG_GTYPE_CONSUMER && g->group_epoch.value >= 0;
}

/* A consumer group's target assignment epoch, when a source gave it. */
static bool
v_assignment_epoch(const kg_group *g, int64_t *v)
{
	*v = g->assignment_epoch.value;
	return g->type == KG_GTYPE_CONSUMER && g->assignment_epoch.value >= 0;
}

/* A consumer group's partitions members still must revoke (their targets known). */
static bool
v_revoking(const kg_group *g, int64_t *v)
{
	*v = g->nrevoking;
	return g->type == KG_GTYPE_CONSUMER && g->nmembers > 0 && g->members[0].ntarget >= 0;
}

/* A consumer group's partitions members await (their targets known). */
static bool
v_awaiting(const kg_group *g, int64_t *v)
{
	*v = g->nawaiting;
	return g->type == KG_GTYPE_CONSUMER && g->nmembers > 0 && g->members[0].ntarget >= 0;
}

/* name{cluster=...,group=... for a counted group (its labels are not in the snapshot's prefixes when gone). */
static void
counted_open(fam_ctx *f, const char *name, const char *suffix, int32_t gid, int proto)
{
	sbuf_adds(f->o, name);
	sbuf_adds(f->o, suffix);
	sbuf_addc(f->o, '{');
	put_label(f->o, "group", intern_group_name(gid), true);
	sbuf_addf(f->o, ",protocol=\"%s\"", proto_name((kg_proto)proto));
}

/* kgtop_rebalances_total */
static void
emit_rebalances(fam_ctx *f, const family *fam)
{
	int i, p, t;
	for (i = 0; i < f->ncounted; i++) {
		const mgroup *g = &f->m->g[f->counted[i]];
		for (p = 0; p < KG_PROTO_COUNT; p++) {
			for (t = 0; t < TRIG_COUNT; t++) {
				if (g->p[p].by_trigger[t] == 0)
					continue;
				counted_open(f, fam->name, "", f->counted[i], p);
				sbuf_addf(f->o, ",trigger=\"%s\"} %llu\n", trigger_names[t],
					  (unsigned long long)g->p[p].by_trigger[t]);
			}
		}
	}
}

/* The cluster's own labels and a protocol: name{cluster="...",protocol="..." */
static void
protocol_open(fam_ctx *f, const char *name, const char *suffix, int proto)
{
	sample_open(f, name, suffix, -1);
	sbuf_adds(f->o, ",protocol=\"");
	sbuf_adds(f->o, proto_name((kg_proto)proto));
	sbuf_addc(f->o, '"');
}

/*
 * kgtop_rebalance_duration_seconds (histogram): the cluster's rebalances by
 * protocol, every group's summed (14 series a group at 10,000 groups was
 * beyond any scrape; kgtop_group_rebalance_duration_seconds keeps a
 * group's sum and count).
 */
static void
emit_durations(fam_ctx *f, const family *fam)
{
	int i, p, b;
	for (p = 0; p < KG_PROTO_COUNT; p++) {
		uint64_t bucket[NBUCKETS] = { 0 }, count = 0, cum = 0;
		int64_t sum = 0;
		for (i = 0; i < f->ncounted; i++) {
			const mproto *mp = &f->m->g[f->counted[i]].p[p];
			for (b = 0; b < NBUCKETS; b++)
				bucket[b] += mp->bucket[b];
			count += mp->count;
			sum += mp->sum_us;
		}
		if (count == 0)
			continue;
		for (b = 0; b < NBUCKETS; b++) {
			cum += bucket[b];
			protocol_open(f, fam->name, "_bucket", p);
			sbuf_adds(f->o, ",le=\"");
			sbuf_adds(f->o, bucket_le[b]);
			sbuf_adds(f->o, "\"} ");
			sbuf_addi(f->o, (long long)cum);
			sbuf_addc(f->o, '\n');
		}
		protocol_open(f, fam->name, "_bucket", p);
		sbuf_adds(f->o, ",le=\"+Inf\"} ");
		sbuf_addi(f->o, (long long)count);
		sbuf_addc(f->o, '\n');
		protocol_open(f, fam->name, "_sum", p);
		sbuf_adds(f->o, "} ");
		put_seconds(f->o, sum);
		sbuf_addc(f->o, '\n');
		protocol_open(f, fam->name, "_count", p);
		sbuf_adds(f->o, "} ");
		sbuf_addi(f->o, (long long)count);
		sbuf_addc(f->o, '\n');
	}
}

/* kgtop_group_rebalance_duration_seconds (summary without quantiles): a group's rebalances' durations summed, and counted. */
static void
emit_group_durations(fam_ctx *f, const family *fam)
{
	int i, p;
	for (i = 0; i < f->ncounted; i++) {
		const mgroup *g = &f->m->g[f->counted[i]];
		for (p = 0; p < KG_PROTO_COUNT; p++) {
			const mproto *mp = &g->p[p];
			if (mp->count == 0)
				continue;
			counted_open(f, fam->name, "_sum", f->counted[i], p);
			sbuf_adds(f->o, "} ");
			put_seconds(f->o, mp->sum_us);
			sbuf_addc(f->o, '\n');
			counted_open(f, fam->name, "_count", f->counted[i], p);
			sbuf_adds(f->o, "} ");
			sbuf_addi(f->o, (long long)mp->count);
			sbuf_addc(f->o, '\n');
		}
	}
}

/*
 * A counter of seconds per group and protocol, two series: bound="min",
 * the sum of what each rebalance proved at least, and bound="max", the sum
 * of the most each one can have cost (kgtop_rebalance_cost_unbounded_total
 * counts those without a most).
 */
static void
per_protocol_bounds(fam_ctx *f, const family *fam, size_t off_min, size_t off_max)
{
	int i, p;
	for (i = 0; i < f->ncounted; i++) {
		const mgroup *g = &f->m->g[f->counted[i]];
		for (p = 0; p < KG_PROTO_COUNT; p++) {
			if (g->p[p].count == 0)
				continue;
			counted_open(f, fam->name, "", f->counted[i], p);
			sbuf_adds(f->o, ",bound=\"min\"} ");
			put_seconds(f->o, *(const int64_t *)((const char *)&g->p[p] + off_min));
			sbuf_addc(f->o, '\n');
			counted_open(f, fam->name, "", f->counted[i], p);
			sbuf_adds(f->o, ",bound=\"max\"} ");
			put_seconds(f->o, *(const int64_t *)((const char *)&g->p[p] + off_max));
			sbuf_addc(f->o, '\n');
		}
	}
}

/* kgtop_rebalance_stopped_member_seconds_total */
static void
emit_stopped(fam_ctx *f, const family *fam)
{
	per_protocol_bounds(f, fam, offsetof(mproto, stopped_min_us), offsetof(mproto, stopped_max_us));
}

/* kgtop_rebalance_unconsumed_partition_seconds_total */
static void
emit_unconsumed(fam_ctx *f, const family *fam)
{
	per_protocol_bounds(f, fam, offsetof(mproto, unconsumed_min_us), offsetof(mproto, unconsumed_max_us));
}

/* kgtop_rebalance_cost_unbounded_total */
static void
emit_unbounded(fam_ctx *f, const family *fam)
{
	int i, p;
	for (i = 0; i < f->ncounted; i++) {
		const mgroup *g = &f->m->g[f->counted[i]];
		for (p = 0; p < KG_PROTO_COUNT; p++) {
			if (g->p[p].count == 0)
				continue;
			counted_open(f, fam->name, "", f->counted[i], p);
			sbuf_addf(f->o, "} %llu\n", (unsigned long long)g->p[p].unbounded);
		}
	}
}

/* Per-member gauges of a health field (the row's off; microseconds, -1 unknown). */
static void
per_member(fam_ctx *f, const family *fam)
{
	int i, k;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		const kg_group *g = &f->s->groups[i];
		for (k = 0; k < g->nmembers; k++) {
			const kg_member *mb = &g->members[k];
			int64_t v = *(const int64_t *)((const char *)&mb->health + fam->off);
			if (v < 0)
				continue;
			sample_open(f, fam->name, "", i);
			put_label(f->o, "client_id", mb->client_id, false);
			put_label(f->o, "member_id", mb->member_id, false);
			sample_seconds(f, v);
		}
	}
}

/* A partition's labels after the group's: topic and partition. */
static void
partition_open(fam_ctx *f, const family *fam, int gi, const kg_gpart *p)
{
	sample_open(f, fam->name, "", gi);
	put_label(f->o, "topic", intern_topic_name(p->tp.topic), false);
	sbuf_adds(f->o, ",partition=\"");
	sbuf_addi(f->o, p->tp.partition);
	sbuf_addc(f->o, '"');
}

/* kgtop_partition_lag_messages (--metrics-partitions) */
static void
emit_partition_lag(fam_ctx *f, const family *fam)
{
	int i, k;
	if (!f->ctx->partitions)
		return;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		const kg_group *g = &f->s->groups[i];
		for (k = 0; k < g->nparts; k++) {
			const kg_gpart *p = &g->parts[k];
			if (p->lag < 0)
				continue;
			partition_open(f, fam, i, p);
			sample_int(f, p->lag);
		}
	}
}

/* kgtop_source_refresh_duration_seconds: how long the source's last refresh took (the cluster's). */
static void
emit_source_refresh(fam_ctx *f, const family *fam)
{
	int i;
	for (i = 0; f->s != NULL && i < f->s->nsources; i++) {
		const kg_source_health *h = &f->s->sources[i];
		if (source_is_output(h) || h->refresh_us <= 0)
			continue;
		sample_open(f, fam->name, "", -1);
		put_label(f->o, "source", h->name, false);
		sample_seconds(f, h->refresh_us);
	}
}

/* The oldest known time lag of a group (exact, estimated, or a lower bound). */
static bool
v_time_lag(const kg_group *g, int64_t *v)
{
	*v = g->time_lag_us;
	return g->tlag_kind != KG_TLAG_NONE && g->time_lag_us >= 0;
}

/* Records deleted before the group consumed them. */
static bool
v_lost(const kg_group *g, int64_t *v)
{
	*v = g->lost;
	return true;
}

/* One sample per group and verdict whose verdict_value(group, verdict) is not 0 (the row's). */
static void
per_verdict(fam_ctx *f, const family *fam)
{
	int i, v;
	for (i = 0; f->s != NULL && i < f->s->ngroups; i++) {
		for (v = 0; v < KG_VERDICT_COUNT; v++) {
			int n = fam->verdict_value(&f->s->groups[i], v);
			if (n == 0)
				continue; /* only the verdicts that hold: a series of zeros per verdict per group would be most of a scrape */
			sample_open(f, fam->name, "", i);
			sbuf_adds(f->o, ",verdict=\"");
			sbuf_adds(f->o, verdict_key((kg_verdict)v));
			sbuf_addc(f->o, '"');
			sample_int(f, n);
		}
	}
}

/* 1 for the group's verdict. */
static int
is_verdict(const kg_group *g, int v)
{
	return g->verdict == v;
}

/* The group's partitions with verdict v, but OK's (the partitions less the others: a series per group less). */
static int
parts_verdict(const kg_group *g, int v)
{
	return v == KG_VERDICT_OK ? 0 : g->nverdict[v];
}

/* kgtop_partition_time_lag_seconds (--metrics-partitions) */
static void
emit_partition_time_lag(fam_ctx *f, const family *fam)
{
	int i, k;
	for (i = 0; f->ctx->partitions && f->s != NULL && i < f->s->ngroups; i++) {
		const kg_group *g = &f->s->groups[i];
		for (k = 0; k < g->nparts; k++) {
			int64_t tl = kg_gpart_time_lag(&g->parts[k], f->s->time_us);
			if (g->parts[k].tlag_kind == KG_TLAG_NONE || tl < 0)
				continue;
			partition_open(f, fam, i, &g->parts[k]);
			sample_seconds(f, tl);
		}
	}
}

/* kgtop_partition_verdict (--metrics-partitions): one sample per judged partition, its verdict as the label. */
static void
emit_partition_verdict(fam_ctx *f, const family *fam)
{
	int i, k;
	for (i = 0; f->ctx->partitions && f->s != NULL && i < f->s->ngroups; i++) {
		const kg_group *g = &f->s->groups[i];
		for (k = 0; k < g->nparts; k++) {
			if (g->parts[k].verdict == KG_VERDICT_NONE)
				continue;
			partition_open(f, fam, i, &g->parts[k]);
			sbuf_adds(f->o, ",verdict=\"");
			sbuf_adds(f->o, verdict_key((kg_verdict)g->parts[k].verdict));
			sbuf_addc(f->o, '"');
			sample_int(f, 1);
		}
	}
}

/* kgtop_stream_viewers */
static void
emit_viewers(fam_ctx *f, const family *fam)
{
	if (!f->ctx->serving)
		return;
	sample_open(f, fam->name, "", -1);
	sample_int(f, f->ctx->viewers);
}

/* kgtop_stream_viewers_dropped_total */
static void
emit_dropped(fam_ctx *f, const family *fam)
{
	if (!f->ctx->serving)
		return;
	sample_open(f, fam->name, "", -1);
	sample_int(f, (int64_t)f->ctx->viewers_dropped);
}

/*
 * The families, in the order a scrape lists them (doc/kgtop.1 lists them
 * too): a row names the function that writes its samples, or says how
 * they are walked (a shape) and what they read (a value function, a field).
 */
#define EMIT(fn) .shape = FAM_EMIT, .emit = (fn)
#define GROUP(fn) .shape = FAM_GROUP, .group_value = (fn)
#define GROUP_SPARSE(fn) .shape = FAM_GROUP, .group_value = (fn), .sparse = true
#define GROUP_S(fn) .shape = FAM_GROUP_S, .group_value = (fn)
#define VERDICT(fn) .shape = FAM_VERDICT, .verdict_value = (fn)
#define MEMBER_S(field) .shape = FAM_MEMBER_S, .off = offsetof(kg_member_health, field)
static const family families[] = {
	{ "kgtop_build_info", "gauge", "kgtop's version and recording format (always 1).", EMIT(emit_build_info) },
	{ "kgtop_snapshot_timestamp_seconds", "gauge", "Time of the newest snapshot, seconds since the epoch.",
	  EMIT(emit_snapshot_time) },
	{ "kgtop_source_up", "gauge", "1 when the source answers as expected, 0 while it is connecting, stale or in error.",
	  EMIT(emit_source_up) },
	{ "kgtop_source_last_success_timestamp_seconds", "gauge", "Time of the source's last good answer.",
	  EMIT(emit_source_last_ok) },
	{ "kgtop_source_refresh_duration_seconds", "gauge", "How long the source's last refresh of the cluster took.",
	  EMIT(emit_source_refresh) },
	{ "kgtop_group_info", "gauge",
	  "A group's rebalance protocol (eager, cooperative, consumer), assignor, coordinator and type (classic, consumer, share, streams).",
	  EMIT(emit_group_info) },
	{ "kgtop_group_epoch", "gauge", "A consumer group's (KIP-848) group epoch, where a coordinator's log or a record gave it.",
	  GROUP(v_group_epoch) },
	{ "kgtop_group_assignment_epoch", "gauge", "A consumer group's (KIP-848) target assignment epoch, where a source gave it.",
	  GROUP(v_assignment_epoch) },
	{ "kgtop_group_partitions_revoking", "gauge",
	  "A consumer group's (KIP-848) partitions its members hold but must revoke to reach their targets.", GROUP(v_revoking) },
	{ "kgtop_group_partitions_awaited", "gauge",
	  "A consumer group's (KIP-848) partitions in members' targets they do not hold yet.", GROUP(v_awaiting) },
	{ "kgtop_group_state", "gauge", "1 with the group's state as a label (one series per group).", EMIT(emit_group_state) },
	{ "kgtop_group_members", "gauge", "Members of the group.", GROUP(v_members) },
	{ "kgtop_group_partitions", "gauge", "Partitions the group consumes or has offsets for.", GROUP(v_partitions) },
	{ "kgtop_group_lag_messages", "gauge", "Log-end offset minus committed offset, summed over the group's partitions.",
	  GROUP(v_lag) },
	{ "kgtop_group_time_lag_seconds", "gauge",
	  "Age of the oldest record the group has yet to consume: exact where the record was read, else interpolated in kgtop's log-end samples (a lower bound beyond the oldest).",
	  GROUP_S(v_time_lag) },
	{ "kgtop_group_verdict", "gauge",
	  "1 with the group's progress verdict over --lag-window as a label (its worst partition's; none: nothing to judge; one series per group).",
	  VERDICT(is_verdict) },
	{ "kgtop_group_verdict_partitions", "gauge",
	  "The group's partitions per progress verdict, for the verdicts but ok that have partitions (ok: the group's partitions minus these).",
	  VERDICT(parts_verdict) },
	{ "kgtop_group_lost_messages", "gauge",
	  "Records deleted by retention before the group consumed them (log start minus committed offset, summed; absent: 0).",
	  GROUP_SPARSE(v_lost) },
	{ "kgtop_group_unconsumed_partitions", "gauge", "Partitions nobody owns while the group is stable (orphaned; absent: 0).",
	  GROUP_SPARSE(v_orphaned) },
	{ "kgtop_group_rebalancing", "gauge", "1 while a rebalance of the group is open.", GROUP(v_rebalancing) },
	{ "kgtop_group_storm", "gauge", "1 while the group is in a rebalance storm (absent: 0).", GROUP_SPARSE(v_storm) },
	{ "kgtop_group_last_rebalance_duration_seconds", "gauge", "Duration of the group's last finished rebalance.",
	  GROUP_S(v_last_rebalance) },
	{ "kgtop_rebalances_total", "counter", "Rebalances finished since kgtop started, by protocol and trigger.",
	  EMIT(emit_rebalances) },
	{ "kgtop_rebalance_duration_seconds", "histogram", "Durations of the cluster's finished rebalances, by protocol.",
	  EMIT(emit_durations) },
	{ "kgtop_group_rebalance_duration_seconds", "summary",
	  "Durations of the group's finished rebalances, by protocol: their sum and count (their distribution: kgtop_rebalance_duration_seconds).",
	  EMIT(emit_group_durations) },
	{ "kgtop_rebalance_stopped_member_seconds_total", "counter",
	  "What the finished rebalances cost in stopped members: the seconds each member consumed nothing, summed within "
	  "bounds (bound=min: at least, bound=max: at most, of those with an upper bound).",
	  EMIT(emit_stopped) },
	{ "kgtop_rebalance_unconsumed_partition_seconds_total", "counter",
	  "What the finished rebalances cost in partitions: the seconds each partition had no consuming owner, summed within "
	  "bounds (bound=min: at least, bound=max: at most, of those with an upper bound).",
	  EMIT(emit_unconsumed) },
	{ "kgtop_rebalance_cost_unbounded_total", "counter",
	  "Finished rebalances whose cost has no upper bound (a partition's consumer may have stopped before kgtop saw it): "
	  "in bound=min only.",
	  EMIT(emit_unbounded) },
	{ "kgtop_member_heartbeat_age_seconds", "gauge", "Time since the member's last heartbeat (where a trace reports it).",
	  MEMBER_S(hb_age_us) },
	{ "kgtop_member_poll_gap_seconds", "gauge", "Time since the member's last poll (where a trace reports it).",
	  MEMBER_S(poll_gap_us) },
	{ "kgtop_partition_lag_messages", "gauge", "Log-end offset minus committed offset of one partition (--metrics-partitions).",
	  EMIT(emit_partition_lag) },
	{ "kgtop_partition_time_lag_seconds", "gauge",
	  "Age of the next record to consume of one partition (--metrics-partitions), exact or interpolated.",
	  EMIT(emit_partition_time_lag) },
	{ "kgtop_partition_verdict", "gauge",
	  "1 with the partition's progress verdict as a label, for the judged partitions (--metrics-partitions).",
	  EMIT(emit_partition_verdict) },
	{ "kgtop_stream_viewers", "gauge", "Viewers attached to /stream now.", EMIT(emit_viewers) },
	{ "kgtop_stream_viewers_dropped_total", "counter", "Viewers of /stream cut off for falling behind or not reading.", EMIT(emit_dropped) },
};

/* Write a family's samples as its row says. */
static void
family_emit(fam_ctx *f, const family *fam)
{
	switch (fam->shape) {
	case FAM_EMIT:
		fam->emit(f, fam);
		break;
	case FAM_GROUP:
	case FAM_GROUP_S:
		per_group(f, fam);
		break;
	case FAM_VERDICT:
		per_verdict(f, fam);
		break;
	case FAM_MEMBER_S:
		per_member(f, fam);
		break;
	}
}

/* Order group ids by name. */
static int
gid_cmp(const void *a, const void *b)
{
	return strcmp(intern_group_name(*(const int32_t *)a), intern_group_name(*(const int32_t *)b));
}

/* Write the label prefixes and list the counted groups by name. */
static void
render_prepare(fam_ctx *f)
{
	const kg_snapshot *s = f->s;
	size_t i;
	put_label(&f->pfx, "cluster", s != NULL ? s->cluster : "", true);
	f->cl_len = f->pfx.len;
	if (s != NULL && s->ngroups > 0) {
		int k;
		f->g_off = xcalloc((size_t)s->ngroups, sizeof *f->g_off);
		f->g_len = xcalloc((size_t)s->ngroups, sizeof *f->g_len);
		for (k = 0; k < s->ngroups; k++) {
			f->g_off[k] = f->pfx.len;
			put_label(&f->pfx, "group", s->groups[k].name, true);
			f->g_len[k] = f->pfx.len - f->g_off[k];
		}
	}
	for (i = 0; f->m != NULL && i < f->m->cap; i++) {
		if (!f->m->g[i].seen)
			continue;
		f->counted = xreallocarray(f->counted, (size_t)f->ncounted + 1, sizeof *f->counted);
		f->counted[f->ncounted++] = (int32_t)i;
	}
	if (f->ncounted > 1)
		qsort(f->counted, (size_t)f->ncounted, sizeof *f->counted, gid_cmp);
}

/* Render everything. */
void
metrics_render(const kg_metrics *m, const kg_snapshot *snap, const kg_metrics_ctx *ctx, sbuf *out)
{
	static const kg_metrics_ctx none = { 0 };
	fam_ctx f;
	size_t i;
	memset(&f, 0, sizeof f);
	f.o = out;
	f.s = snap;
	f.m = m;
	f.ctx = ctx != NULL ? ctx : &none;
	render_prepare(&f);
	for (i = 0; i < KG_ARRAY_LEN(families); i++) {
		const family *fam = &families[i];
		sbuf_addf(out, "# HELP %s %s\n# TYPE %s %s\n", fam->name, fam->help, fam->name, fam->type);
		family_emit(&f, fam);
	}
	sbuf_free(&f.pfx);
	free(f.g_off);
	free(f.g_len);
	free(f.counted);
}
