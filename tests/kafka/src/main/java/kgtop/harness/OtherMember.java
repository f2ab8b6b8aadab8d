package kgtop.harness;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The fleet's members of the groups that are not consumer groups: a share group's consumer
 * (KIP-932, KafkaShareConsumer) and a streams group's application (KIP-1071, Kafka Streams with
 * group.protocol=streams). They exist so that kgtop is shown every group type a Kafka 4 broker
 * lists; their ground truth is the group itself (the fleet's "list" and the broker's log), not
 * their callbacks. "leave NAME" closes one.
 */
final class OtherMember {
    static final Map<String, AutoCloseable> RUNNING = new ConcurrentHashMap<>();

    private OtherMember() {
    }

    /** True for the join options this class serves (protocol=share or protocol=streams). */
    static boolean handles(Map<String, String> o) {
        String p = o.getOrDefault("protocol", "");
        return p.equals("share") || p.equals("streams");
    }

    /** Starts one member; its lines say started, and polled once it got records (share). */
    static void start(String name, Map<String, String> o) {
        String group = o.get("group"), topic = o.get("topic");
        if (group == null || topic == null) {
            throw new IllegalArgumentException("join needs group= and topic=");
        }
        if (RUNNING.containsKey(name)) {
            throw new IllegalArgumentException("member " + name + " exists");
        }
        if (o.get("protocol").equals("share")) {
            share(name, group, topic);
        } else {
            streams(name, group, topic);
        }
        Fleet.emit(Fleet.ev("started").str("c", name).str("group", group).str("protocol", o.get("protocol")));
    }

    /** A share consumer polling on a thread of its own until closed. */
    static void share(String name, String group, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Fleet.bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        KafkaShareConsumer<byte[], byte[]> c = new KafkaShareConsumer<>(p);
        c.subscribe(List.of(topic));
        Thread t = new Thread(() -> {
            long seen = 0;
            try {
                while (true) {
                    int n = c.poll(Duration.ofMillis(200)).count();
                    if (n > 0 && seen == 0) {
                        Fleet.emit(Fleet.ev("polled").str("c", name).str("group", group).num("records", n));
                    }
                    seen += n;
                    c.commitSync();
                }
            } catch (org.apache.kafka.common.errors.WakeupException e) {
                c.close();
                Fleet.emit(Fleet.ev("closed").str("c", name).str("group", group));
            } catch (RuntimeException e) {
                Fleet.emit(Fleet.ev("thread_error").str("c", name).str("group", group).str("error", e.toString()));
            }
        }, "share-" + name);
        RUNNING.put(name, c::wakeup);
        t.setDaemon(true);
        t.start();
    }

    /** A Kafka Streams application of one processor, group.protocol=streams; the group id is its application id. */
    static void streams(String name, String group, String topic) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, group);
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, Fleet.bootstrap);
        p.put(StreamsConfig.CLIENT_ID_CONFIG, name);
        p.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        p.put(StreamsConfig.STATE_DIR_CONFIG, System.getProperty("kgtop.run", "/tmp") + "/streams-" + name);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
        StreamsBuilder b = new StreamsBuilder();
        b.<byte[], byte[]>stream(topic).foreach((k, v) -> {
        });
        KafkaStreams s = new KafkaStreams(b.build(), p);
        s.setStateListener((now, before) -> Fleet.emit(Fleet.ev("streams_state").str("c", name).str("group", group)
                .str("state", now.toString())));
        s.start();
        RUNNING.put(name, s::close);
    }

    /** Closes a member of this class; false when NAME is none of them. */
    static boolean stop(String name) throws Exception {
        AutoCloseable c = RUNNING.remove(name);
        if (c == null) {
            return false;
        }
        c.close();
        return true;
    }
}
