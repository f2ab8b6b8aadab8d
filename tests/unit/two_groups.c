/*
 * two_groups.c: the reporters' tests' fixed cluster (see two_groups.h).
 */
#include "config.h"

#include "two_groups.h"

#include "model/intern.h"

/* Two groups, in a builder. */
kg_builder *
two_groups_builder(int64_t t_us)
{
	kg_builder *b = builder_new(t_us);
	int32_t t = intern_topic("orders");
	kg_tp asg[2] = { { t, 0 }, { t, 1 } };
	kg_bgroup *g;
	kg_bmember *m;
	int p;
	builder_broker(b, 2, "broker-2", 9092);
	builder_topic(b, t, 4);
	for (p = 0; p < 4; p++)
		builder_partition(b, (kg_tp){ t, p }, 2, 100);
	g = builder_group(b, intern_group("g-busy"));
	bgroup_state(g, KG_STATE_STABLE);
	bgroup_protocol(g, "consumer", "range");
	bgroup_coordinator(g, 2);
	bgroup_committed(g, (kg_tp){ t, 0 }, 90);
	bgroup_committed(g, (kg_tp){ t, 1 }, 100);
	bgroup_committed(g, (kg_tp){ t, 2 }, 40);
	m = bgroup_member(g, "a-1");
	bmember_ids(m, "a", "/10.0.0.1", NULL);
	bmember_assignment(m, asg, 2);
	m = bgroup_member(g, "z-1");
	bmember_ids(m, "z", "/10.0.0.2", NULL);
	g = builder_group(b, intern_group("g-lost"));
	bgroup_state(g, KG_STATE_PREPARING_REBALANCE);
	bgroup_protocol(g, "consumer", "");
	bgroup_proto(g, KG_PROTO_COOPERATIVE);
	bgroup_error(g, "coordinator load in progress");
	return b;
}
