/*
 * two_groups.h: a small fixed cluster the reporters' tests share
 * (test_report: the --once text; test_metrics: the Prometheus exposition).
 */
#ifndef KGTOP_TESTS_TWO_GROUPS_H
#define KGTOP_TESTS_TWO_GROUPS_H

#include <stdint.h>

#include "model/snapshot.h"

/*
 * A builder at time t_us holding two groups on topic "orders" (4
 * partitions at log-end 100, led by broker-2): g-busy (Stable, range,
 * coordinator 2, members a-1 with [0 1] and z-1 idle, committed 90, 100,
 * 40 on partitions 0-2, so two of four partitions orphaned) and g-lost
 * (rebalancing cooperatively, no coordinator known, a describe error).
 * The caller adds what it needs and finishes it.
 */
kg_builder *two_groups_builder(int64_t t_us);

#endif
