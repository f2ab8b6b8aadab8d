package kgtop.harness;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.coordinator.group.generated.CoordinatorRecordJsonConverters;

/**
 * The ground truth of kgtop's __consumer_offsets reader (issue 23): every record of the topic from
 * its start to its end as this moment sees it, one JSON object a line, with its bytes and Kafka's
 * own decoding of them (the group coordinator's record serde and the generated JSON converters of
 * the release under test):
 * <pre>
 *   {"p":P,"o":OFFSET,"t":TIMESTAMP_MS,"k":"HEX","v":"HEX"|null,"type":N,"vv":VALUE_VERSION,
 *    "key":{...},"value":{...}|null}
 * </pre>
 * A record Kafka itself cannot decode says so ("error"). It reads without a group (assign, no
 * group.id), commits nothing, and ends at the end offsets it saw when it started.
 *
 * <p>Usage: OffsetsDump BOOTSTRAP
 */
public final class OffsetsDump {
    private OffsetsDump() {
    }

    static String hex(byte[] b) {
        if (b == null) {
            return null;
        }
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }

    public static void main(String[] args) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "kgtop-offsets-dump");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        GroupCoordinatorRecordSerde serde = new GroupCoordinatorRecordSerde();
        JsonNodeFactory f = JsonNodeFactory.instance;
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> tps = new ArrayList<>();
            for (PartitionInfo pi : c.partitionsFor("__consumer_offsets", Duration.ofSeconds(30))) {
                tps.add(new TopicPartition(pi.topic(), pi.partition()));
            }
            c.assign(tps);
            c.seekToBeginning(tps);
            Map<TopicPartition, Long> end = new HashMap<>(c.endOffsets(tps, Duration.ofSeconds(30)));
            end.entrySet().removeIf(e -> c.position(e.getKey(), Duration.ofSeconds(30)) >= e.getValue());
            long deadline = System.currentTimeMillis() + 60000;
            while (!end.isEmpty() && System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    ObjectNode o = f.objectNode();
                    o.put("p", r.partition());
                    o.put("o", r.offset());
                    o.put("t", r.timestamp());
                    o.put("k", hex(r.key()));
                    o.put("v", hex(r.value()));
                    try {
                        CoordinatorRecord cr = serde.deserialize(ByteBuffer.wrap(r.key()),
                            r.value() == null ? null : ByteBuffer.wrap(r.value()));
                        o.put("type", cr.key().apiKey());
                        o.set("key", CoordinatorRecordJsonConverters.writeRecordKeyAsJson(cr.key()));
                        if (cr.value() == null) {
                            o.putNull("value");
                        } else {
                            o.put("vv", cr.value().version());
                            o.set("value", CoordinatorRecordJsonConverters.writeRecordValueAsJson(cr.value().message(),
                                cr.value().version()));
                        }
                    } catch (RuntimeException e) {
                        o.put("error", e.toString());
                    }
                    System.out.println(o.toString());
                }
                for (TopicPartition tp : new ArrayList<>(end.keySet())) {
                    if (c.position(tp, Duration.ofSeconds(30)) >= end.get(tp)) {
                        end.remove(tp);
                    }
                }
            }
            if (!end.isEmpty()) {
                System.err.println("OffsetsDump: not at the end of " + end.keySet() + " within 60 s");
                System.exit(1);
            }
        }
    }
}
