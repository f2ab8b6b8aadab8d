/*
 * rdprobe.c: what the system's librdkafka (the one kgtop links) is answered by a broker for one
 * group: ListConsumerGroups (ListGroups) and DescribeConsumerGroups (DescribeGroups), printed one
 * fact a line. tests/kafka/t_kip848.sh records with it what Kafka 4.x answers librdkafka 2.0.2 for a
 * KIP-848 (group.protocol=consumer) group: with 2.10 and later each member's assignment and
 * target ("member: CLIENT ID assignment=t1-0,t1-1 target=t1-0,t1-1"; "-" none, "null" not given).
 *   rdprobe BOOTSTRAP GROUP
 */
#include "config.h"

#include <librdkafka/rdkafka.h>
#include <stdio.h>
#include <string.h>

/* A partition list as "t1-0,t1-1" ("-" when empty, "null" when not given). */
static void
print_parts(const char *key, const rd_kafka_MemberAssignment_t *a)
{
	const rd_kafka_topic_partition_list_t *l = a ? rd_kafka_MemberAssignment_partitions(a) : NULL;
	printf(" %s=", key);
	if (a == NULL || l == NULL) {
		printf("null");
		return;
	}
	if (l->cnt == 0)
		printf("-");
	for (int i = 0; i < l->cnt; i++)
		printf("%s%s-%d", i ? "," : "", l->elems[i].topic ? l->elems[i].topic : "(no name)",
		       (int)l->elems[i].partition);
}

/* List the groups, then describe GROUP. */
int
main(int argc, char **argv)
{
	char err[512];
	rd_kafka_conf_t *c = rd_kafka_conf_new();
	rd_kafka_conf_set(c, "bootstrap.servers", argv[1], err, sizeof err);
	if (argc > 3) rd_kafka_conf_set(c, "debug", argv[3], err, sizeof err);
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, c, err, sizeof err);
	rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
	rd_kafka_ListConsumerGroups(rk, NULL, q);
	rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 10000);
	const rd_kafka_ListConsumerGroups_result_t *lr = rd_kafka_event_ListConsumerGroups_result(ev);
	size_t n; const rd_kafka_ConsumerGroupListing_t **l = rd_kafka_ListConsumerGroups_result_valid(lr, &n);
	for (size_t i = 0; i < n; i++)
		printf("ListGroups: %s state=%s simple=%d\n", rd_kafka_ConsumerGroupListing_group_id(l[i]),
		       rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupListing_state(l[i])),
		       rd_kafka_ConsumerGroupListing_is_simple_consumer_group(l[i]));
	size_t ne; const rd_kafka_error_t **es = rd_kafka_ListConsumerGroups_result_errors(lr, &ne);
	for (size_t i = 0; i < ne; i++) printf("ListGroups error: %s\n", rd_kafka_error_string(es[i]));
	rd_kafka_event_destroy(ev);
	const char *g = argv[2];
	rd_kafka_DescribeConsumerGroups(rk, &g, 1, NULL, q);
	ev = rd_kafka_queue_poll(q, 10000);
	const rd_kafka_DescribeConsumerGroups_result_t *dr = rd_kafka_event_DescribeConsumerGroups_result(ev);
	const rd_kafka_ConsumerGroupDescription_t **d = rd_kafka_DescribeConsumerGroups_result_groups(dr, &n);
	for (size_t i = 0; i < n; i++) {
		const rd_kafka_error_t *e = rd_kafka_ConsumerGroupDescription_error(d[i]);
		printf("DescribeGroups: %s state=%s members=%zu error=%s assignor='%s'\n", rd_kafka_ConsumerGroupDescription_group_id(d[i]),
		       rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(d[i])),
		       rd_kafka_ConsumerGroupDescription_member_count(d[i]), e ? rd_kafka_error_string(e) : "none",
		       rd_kafka_ConsumerGroupDescription_partition_assignor(d[i]));
		for (size_t j = 0; j < rd_kafka_ConsumerGroupDescription_member_count(d[i]); j++) {
			const rd_kafka_MemberDescription_t *md = rd_kafka_ConsumerGroupDescription_member(d[i], j);
			printf("member: %s %s", rd_kafka_MemberDescription_client_id(md),
			       rd_kafka_MemberDescription_consumer_id(md));
			print_parts("assignment", rd_kafka_MemberDescription_assignment(md));
#ifdef HAVE_RD_KAFKA_MEMBERDESCRIPTION_TARGET_ASSIGNMENT
			print_parts("target", rd_kafka_MemberDescription_target_assignment(md));
#endif
			printf("\n");
		}
	}
	rd_kafka_event_destroy(ev);
	rd_kafka_queue_destroy(q);
	rd_kafka_destroy(rk);
	return 0;
}
