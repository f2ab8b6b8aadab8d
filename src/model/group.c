/*
 * group.c: what a finished group answers: its members and partitions by
 * key, whether it uses one topic, whether it is in trouble (and how many
 * groups of a snapshot are), and which partition of
 * __consumer_offsets holds it (group_offsets_partition).
 *
 * A classic group's coordinator is the leader of one partition of
 * __consumer_offsets: the group's offsets and membership live there.  The
 * partition is a pure function of the group id and the topic's partition
 * count (50 by default; metadata says), so kgtop computes it the way the
 * broker does and the header can name it beside the coordinator's id.
 */
#include "config.h"

#include "model/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdlib.h>

#include "model/rows.h"
#include "util/util.h"

/* bsearch: a member id against a member. */
static int
member_id_cmp(const void *key, const void *elem)
{
	return strcmp(key, ((const kg_member *)elem)->member_id);
}

/* Find a member by id (members are sorted by it). */
int
group_member_index(const kg_group *g, const char *member_id)
{
	const kg_member *m =
		g->nmembers > 0 ? bsearch(member_id, g->members, (size_t)g->nmembers, sizeof *g->members, member_id_cmp) : NULL;
	return m != NULL ? (int)(m - g->members) : -1;
}

/* Find a partition. */
int
group_part_index(const kg_group *g, kg_tp tp)
{
	return tp_find(g->parts, g->nparts, sizeof *g->parts, tp);
}

/* True when the group uses one topic. */
bool
group_single_topic(const kg_group *g)
{
	int i;
	for (i = 1; i < g->nparts; i++) {
		if (g->parts[i].tp.topic != g->parts[0].tp.topic)
			return false;
	}
	return true;
}

/* True when a group is in trouble (snapshot.h says what that is). */
bool
group_in_trouble(const kg_group *g)
{
	return (g->nmembers > 0 && (g->verdict == KG_VERDICT_STALLED || g->verdict == KG_VERDICT_STOPPED ||
				    g->verdict == KG_VERDICT_LOST)) ||
	       g->sum.storm;
}

/*
 * The __consumer_offsets partition of a group, as the broker computes it
 * (GroupMetadataManager.partitionFor): Java's String.hashCode of the id
 * (over UTF-16 code units, 32-bit wrap-around), Kafka's Utils.abs (which
 * maps Integer.MIN_VALUE to 0), modulo the partition count.  Invalid UTF-8
 * counts as U+FFFD, as Java's decoder would read it.
 */
int32_t
group_offsets_partition(const char *group_id, int32_t partitions)
{
	uint32_t h = 0;
	size_t i = 0, n;
	int32_t v;
	if (group_id == NULL || partitions <= 0)
		return -1;
	n = strlen(group_id);
	while (i < n) {
		long cp;
		size_t k = util_utf8_decode(group_id + i, n - i, &cp);
		if (k == 0)
			k = 1;
		if (cp < 0)
			cp = 0xfffd;
		i += k;
		if (cp >= 0x10000) {
			/* a surrogate pair: two UTF-16 code units */
			cp -= 0x10000;
			h = h * 31u + (uint32_t)(0xd800 + (cp >> 10));
			h = h * 31u + (uint32_t)(0xdc00 + (cp & 0x3ff));
		} else {
			h = h * 31u + (uint32_t)cp;
		}
	}
	v = h == 0x80000000u ? 0 : (int32_t)(h > 0x7fffffffu ? (~h + 1u) : h);
	return v % partitions;
}

/* How the header names a group's coordinator and its __consumer_offsets partition. */
void
group_coordinator_text(char *buf, size_t n, const kg_group *g, int32_t partitions)
{
	int32_t p = group_offsets_partition(g->name, partitions);
	char part[64];
	if (p >= 0)
		snprintf(part, sizeof part, "__consumer_offsets-%d", (int)p);
	else
		snprintf(part, sizeof part, "partition unknown");
	if (g->coordinator >= 0)
		snprintf(buf, n, "  coordinator %d, %s", (int)g->coordinator, part);
	else if (p >= 0)
		snprintf(buf, n, "  coordinator unknown, %s", part);
	else
		snprintf(buf, n, "%s", "");
}

/* The partitions of a that b has not, copied into s's arena; their number in *n. */
static kg_tp *
tp_minus(kg_snapshot *s, const kg_tp *a, int na, const kg_tp *b, int nb, int *n)
{
	kg_tp *tmp, *out;
	if (na <= 0) {
		*n = 0;
		return NULL;
	}
	tmp = xmalloc((size_t)na * sizeof *tmp);
	*n = tp_diff(a, na, b, nb, tmp);
	out = snapshot_tp_dup(s, tmp, *n);
	free(tmp);
	return out;
}

/*
 * KIP-848: what separates each member's assignment from its target.  A
 * member whose target is not known (a classic group's, or a consumer
 * group's a source did not describe) has nothing pending; partitions a
 * member must revoke, or awaits, are counted for the group, and each
 * partition knows whose target it is in.
 */
void
group_reconciliation_of(kg_snapshot *s, kg_group *g, bool rows)
{
	int k, q;
	g->nrevoking = g->nawaiting = 0;
	for (q = 0; rows && q < g->nparts; q++)
		g->parts[q].target_owner = -1;
	for (k = 0; k < g->nmembers; k++) {
		kg_member *m = &g->members[k];
		if (m->ntarget < 0) {
			m->revoking = m->awaiting = NULL;
			m->nrevoking = m->nawaiting = 0;
			continue;
		}
		m->revoking = tp_minus(s, m->assignment, m->nassigned, m->target, m->ntarget, &m->nrevoking);
		m->awaiting = tp_minus(s, m->target, m->ntarget, m->assignment, m->nassigned, &m->nawaiting);
		g->nrevoking += m->nrevoking;
		g->nawaiting += m->nawaiting;
		for (q = 0; rows && q < m->ntarget; q++) {
			int idx = group_part_index(g, m->target[q]);
			if (idx >= 0 && g->parts[idx].target_owner < 0)
				g->parts[idx].target_owner = k;
		}
	}
}

/* The tracker's: a member's newer target or assignment than the description (the rows its own, touched: rows.h). */
void
group_reconciliation(kg_snapshot *s, kg_group *g)
{
	group_rows_own(g);
	group_reconciliation_of(s, g, true);
	rows_touch(g->rows);
}
