# tests/kafka: Apache Kafka itself in the test loop (issue 20). A Maven project (pom.xml, pinned
# versions, Maven Central only) fetches the broker, the Java client and the tools once into the
# local Maven repository and compiles the consumer fleet; `make check` builds it first
# (check_DATA), so the README's test command fetches them. The scenarios start a KRaft cluster on
# loopback (kafka.sh) and compare kgtop with the fleet's callbacks and the broker's own answers.
MVN = mvn
KAFKA_VERSION =
KAFKA_BUILD = tests/kafka/target
KAFKA_MVN = $(MVN) -B -q -f $(abs_top_srcdir)/tests/kafka/pom.xml -Dkgtop.build=$(abs_top_builddir)/$(KAFKA_BUILD) \
	$(if $(KAFKA_VERSION),-Dkafka.version=$(KAFKA_VERSION))
KAFKA_SRCFILES = tests/kafka/pom.xml tests/kafka/src/main/java/kgtop/harness/Fleet.java \
	tests/kafka/src/main/java/kgtop/harness/OtherMember.java \
	tests/kafka/src/main/java/kgtop/harness/OffsetsDump.java
$(KAFKA_BUILD)/classpath.txt: $(KAFKA_SRCFILES)
	@echo "  MVN      tests/kafka (Apache Kafka's jars into the local Maven repository, the fleet)"
	@$(KAFKA_MVN) process-classes || { echo "make kafka-deps: Maven failed (it needs a JDK >= 17, Maven and Maven Central: ./autogen.sh --deps installs them)"; exit 1; }
	@test -s $@
kafka-deps: $(KAFKA_BUILD)/classpath.txt
check_DATA = $(KAFKA_BUILD)/classpath.txt
clean-local: clean-kafka
clean-kafka:
	-rm -rf $(KAFKA_BUILD) tests/kafka/run
.PHONY: kafka-deps clean-kafka

EXTRA_DIST += $(KAFKA_SRCFILES) tests/kafka/kafka.sh tests/kafka/log4j2-broker.properties \
	tests/kafka/log4j2-tools.properties tests/kafka/DISAGREEMENTS.md
TESTS += tests/kafka/t_describe.sh
EXTRA_DIST += tests/kafka/t_describe.sh
TESTS += tests/kafka/t_offsets.sh tests/kafka/t_rebalance.sh tests/kafka/t_progress.sh tests/kafka/t_demo.sh tests/kafka/t_kip848.sh tests/kafka/t_static.sh tests/kafka/t_coordinator.sh tests/kafka/t_jolokia.sh tests/kafka/t_harness.sh
EXTRA_DIST += tests/kafka/t_offsets.sh tests/kafka/t_rebalance.sh tests/kafka/t_progress.sh tests/kafka/t_demo.sh tests/kafka/t_kip848.sh tests/kafka/t_static.sh tests/kafka/t_coordinator.sh tests/kafka/t_jolokia.sh tests/kafka/t_harness.sh tests/kafka/capture-logs.sh
# what librdkafka (kgtop's) is answered for one group: ListGroups and DescribeGroups
check_PROGRAMS += tests/kafka/rdprobe
tests_kafka_rdprobe_SOURCES = tests/kafka/rdprobe.c
tests_kafka_rdprobe_CFLAGS = $(AM_CFLAGS) $(RDKAFKA_CFLAGS)
tests_kafka_rdprobe_LDADD = $(RDKAFKA_LIBS)
