package kgtop.harness;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DeletedRecords;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The consumer fleet of kgtop's Kafka harness: one JVM, any number of Java consumers, each in the
 * group it is told, driven by one command a line on standard input, writing the ground truth as
 * one JSON object a line on standard output, from the consumers' own callbacks.
 *
 * <p>Commands (words, then key=value options):
 * <pre>
 *   topic NAME PARTITIONS
 *   produce TOPIC COUNT [ts=EPOCH_MS] [step=MS] [partition=P]   COUNT records per partition, timestamps ts + i*step
 *   join NAME group=G topic=T [protocol=classic|consumer] [assignor=range|roundrobin|sticky|cooperative-sticky|uniform]
 *        [instance=ID] [session=MS] [heartbeat=MS] [poll=MS] [commit=sync|auto|none] [jvm=child]
 *   join NAME group=G topic=T protocol=share|streams   a share group's consumer (KIP-932), a streams group's
 *        application (KIP-1071): OtherMember.java; leave NAME closes it
 *   leave NAME      close(): LeaveGroup, as an application that stops
 *   crash NAME      the consumer dies: its thread ends without LeaveGroup, no callback, no commit, no heartbeat
 *   stall NAME      stop calling poll() (the heartbeat goes on until max.poll.interval.ms); resume NAME
 *   restart NAME    a static member's restart: closed without leaving, then again with the same instance id
 *   freeze NAME|all stop committing (polling goes on); thaw NAME|all
 *   delete-records TOPIC PARTITION OFFSET
 *   describe GROUP  the Java admin client's DescribeConsumerGroups (ConsumerGroupDescribe, or DescribeGroups)
 *   list            the Java admin client's ListGroups
 *   topics          the topics' names (ListTopics)
 *   scenario FILE GROUP...  the groups and their topics as a fixture broker scenario (tests/fixture/SCENARIO.md),
 *                   from the Java admin client's answers: the same state for kgtop on both brokers
 *   quit
 * </pre>
 * Every command is answered by {"ev":"ack",...} (or "error") once done. Lines carry "t", the wall
 * clock in milliseconds.
 *
 * <p>A crash must send nothing: no LeaveGroup, no leaving heartbeat, no commit, and its heartbeats
 * must stop. In this JVM a classic consumer is closed with REMAIN_IN_GROUP (KIP-1092): its sockets
 * close and the classic coordinator learns of it only when the session times out (checked against
 * Kafka 4.3.1's log: "has failed"). A KIP-848 consumer closed that way still sends a leaving
 * heartbeat (the broker logged "left the consumer group" at once), so such a member is started
 * with jvm=child, in a JVM of its own that the fleet kills (SIGKILL) to crash it; its lines are
 * copied to this one's output.
 */
public final class Fleet {
    static final Object OUT = new Object();
    static final Map<String, Member> MEMBERS = new ConcurrentHashMap<>();
    static final Map<String, Child> CHILDREN = new ConcurrentHashMap<>();
    static String bootstrap;
    static Admin admin;
    static KafkaProducer<byte[], byte[]> producer;

    private Fleet() {
    }

    /** Writes one ground-truth line. */
    static void emit(Json j) {
        String s = j.done();
        synchronized (OUT) {
            System.out.println(s);
            System.out.flush();
        }
    }

    static Json ev(String kind) {
        return new Json().num("t", System.currentTimeMillis()).str("ev", kind);
    }

    public static void main(String[] args) throws Exception {
        bootstrap = args[0];
        Properties ap = new Properties();
        ap.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        ap.put(AdminClientConfig.CLIENT_ID_CONFIG, "kgtop-fleet-admin");
        admin = Admin.create(ap);
        emit(ev("ready"));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        int n = 0;
        while ((line = in.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            n++;
            String[] w = line.split("\\s+");
            try {
                if (!command(w)) {
                    break;
                }
                emit(ev("ack").num("n", n).str("cmd", line));
            } catch (Exception e) {
                emit(ev("error").num("n", n).str("cmd", line).str("error", e.toString()));
            }
        }
        emit(ev("bye"));
        System.out.flush();
        Runtime.getRuntime().halt(0); // the broker is stopped next: no close that waits for it
    }

    /** Runs one command; false on quit. */
    static boolean command(String[] w) throws Exception {
        Map<String, String> o = new HashMap<>();
        List<String> pos = new ArrayList<>();
        for (int i = 1; i < w.length; i++) {
            int eq = w[i].indexOf('=');
            if (eq > 0) {
                o.put(w[i].substring(0, eq), w[i].substring(eq + 1));
            } else {
                pos.add(w[i]);
            }
        }
        switch (w[0]) {
            case "quit":
                return false;
            case "topic":
                admin.createTopics(List.of(new NewTopic(pos.get(0), Integer.parseInt(pos.get(1)), (short) 1)))
                        .all().get(30, TimeUnit.SECONDS);
                break;
            case "produce":
                produce(pos.get(0), Integer.parseInt(pos.get(1)), o);
                break;
            case "join": {
                if (OtherMember.handles(o)) {
                    OtherMember.start(pos.get(0), o);
                    break;
                }
                if ("child".equals(o.get("jvm"))) {
                    Child ch = new Child(pos.get(0), String.join(" ", w).replace(" jvm=child", ""));
                    CHILDREN.put(ch.name, ch);
                    break;
                }
                Member m = new Member(pos.get(0), o);
                if (MEMBERS.putIfAbsent(m.name, m) != null) {
                    throw new IllegalArgumentException("member " + m.name + " exists");
                }
                m.start();
                break;
            }
            case "delete-records": {
                TopicPartition tp = new TopicPartition(pos.get(0), Integer.parseInt(pos.get(1)));
                DeletedRecords d = admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(Long.parseLong(pos.get(2)))))
                        .lowWatermarks().get(tp).get(30, TimeUnit.SECONDS);
                emit(ev("deleted").str("tp", tp.toString()).num("low_watermark", d.lowWatermark()));
                break;
            }
            case "describe":
                describe(pos);
                break;
            case "list": {
                Json j = ev("groups");
                List<String> gs = new ArrayList<>();
                for (GroupListing g : admin.listGroups().all().get(30, TimeUnit.SECONDS)) {
                    gs.add(new Json().str("id", g.groupId()).str("type", String.valueOf(g.type().orElse(null)))
                            .str("protocol", g.protocol()).str("state", String.valueOf(g.groupState().orElse(null))).done());
                }
                emit(j.raw("groups", "[" + String.join(",", gs) + "]"));
                break;
            }
            case "topics": {
                List<String> ts = new ArrayList<>();
                for (String t : new TreeSet<>(admin.listTopics().names().get(30, TimeUnit.SECONDS))) {
                    ts.add(Json.quote(t));
                }
                emit(ev("topics").raw("topics", "[" + String.join(",", ts) + "]"));
                break;
            }
            case "scenario":
                scenario(pos.get(0), pos.subList(1, pos.size()));
                break;
            case "freeze":
            case "thaw":
                for (Child ch : CHILDREN.values()) {
                    if (pos.get(0).equals("all") || pos.get(0).equals(ch.name)) {
                        ch.send(w[0] + " " + ch.name);
                    }
                }
                if (CHILDREN.containsKey(pos.get(0))) {
                    break;
                }
                for (Member m : targets(pos.get(0))) {
                    m.frozen = w[0].equals("freeze");
                    emit(ev(w[0]).str("c", m.name).str("group", m.group).raw("committed", m.committedJson()));
                }
                break;
            case "leave":
                if (OtherMember.stop(pos.get(0))) {
                    break;
                }
                // fall through: a consumer of this JVM or a child's
            case "crash":
            case "stall":
            case "resume":
            case "restart":
                if (CHILDREN.containsKey(pos.get(0))) {
                    CHILDREN.get(pos.get(0)).order(w[0]);
                    break;
                }
                for (Member m : targets(pos.get(0))) {
                    if (w[0].equals("crash") && m.opts.getOrDefault("protocol", "classic").equals("consumer")) {
                        throw new IllegalArgumentException("crash of a group.protocol=consumer member needs jvm=child");
                    }
                    m.order(w[0]);
                }
                break;
            default:
                throw new IllegalArgumentException("unknown command " + w[0]);
        }
        return true;
    }

    static Collection<Member> targets(String name) {
        if (name.equals("all")) {
            return MEMBERS.values();
        }
        Member m = MEMBERS.get(name);
        if (m == null) {
            throw new IllegalArgumentException("no member " + name);
        }
        return List.of(m);
    }

    /** COUNT records per partition, timestamps ts + i*step: their offsets and timestamps are the truth. */
    static void produce(String topic, int count, Map<String, String> o) throws Exception {
        if (producer == null) {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ProducerConfig.CLIENT_ID_CONFIG, "kgtop-fleet-producer");
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producer = new KafkaProducer<>(p);
        }
        long ts = Long.parseLong(o.getOrDefault("ts", Long.toString(System.currentTimeMillis())));
        long step = Long.parseLong(o.getOrDefault("step", "0"));
        int parts = producer.partitionsFor(topic).size();
        List<Integer> which = new ArrayList<>();
        if (o.containsKey("partition")) {
            which.add(Integer.parseInt(o.get("partition")));
        } else {
            for (int p = 0; p < parts; p++) {
                which.add(p);
            }
        }
        for (int p : which) {
            List<Future<RecordMetadata>> fs = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                fs.add(producer.send(new ProducerRecord<>(topic, p, ts + i * step, null,
                        ("record " + i).getBytes(StandardCharsets.UTF_8))));
            }
            producer.flush();
            RecordMetadata first = fs.get(0).get(), last = fs.get(count - 1).get();
            emit(ev("produced").str("tp", topic + "-" + p).num("first", first.offset()).num("last", last.offset())
                    .num("ts_first", first.timestamp()).num("step", step));
        }
    }

    /** The Java admin client's view of groups: what kafka-consumer-groups.sh --describe reads. */
    static void describe(List<String> groups) throws Exception {
        Map<String, ConsumerGroupDescription> d = admin.describeConsumerGroups(groups).all().get(30, TimeUnit.SECONDS);
        for (ConsumerGroupDescription g : d.values()) {
            List<String> ms = new ArrayList<>();
            for (MemberDescription m : g.members()) {
                ms.add(new Json().str("member", m.consumerId()).str("client", m.clientId()).str("host", m.host())
                        .str("instance", m.groupInstanceId().orElse(null))
                        .num("epoch", m.memberEpoch().orElse(-1))
                        .raw("assignment", tpsJson(m.assignment().topicPartitions()))
                        .raw("target", m.targetAssignment().isPresent()
                                ? tpsJson(m.targetAssignment().get().topicPartitions()) : "null").done());
            }
            emit(ev("described").str("group", g.groupId()).str("type", String.valueOf(g.type()))
                    .str("state", String.valueOf(g.groupState())).str("assignor", g.partitionAssignor())
                    .num("group_epoch", g.groupEpoch().orElse(-1))
                    .num("assignment_epoch", g.targetAssignmentEpoch().orElse(-1))
                    .str("coordinator", g.coordinator() == null ? null : Integer.toString(g.coordinator().id()))
                    .raw("members", "[" + String.join(",", ms) + "]"));
        }
    }

    /** GROUPS as a fixture scenario: states, assignors, members, assignments, committed offsets, log ends. */
    static void scenario(String file, List<String> groups) throws Exception {
        Map<String, ConsumerGroupDescription> d = admin.describeConsumerGroups(groups).all().get(30, TimeUnit.SECONDS);
        TreeMap<String, TreeMap<Integer, Long>> ends = new TreeMap<>();
        List<String> gs = new ArrayList<>();
        for (String id : groups) {
            ConsumerGroupDescription g = d.get(id);
            Map<TopicPartition, OffsetAndMetadata> offs = admin.listConsumerGroupOffsets(id).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS);
            TreeMap<String, TreeMap<Integer, Long>> com = new TreeMap<>();
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offs.entrySet()) {
                com.computeIfAbsent(e.getKey().topic(), k -> new TreeMap<>()).put(e.getKey().partition(), e.getValue().offset());
                ends.computeIfAbsent(e.getKey().topic(), k -> new TreeMap<>());
            }
            List<String> ms = new ArrayList<>();
            for (MemberDescription m : g.members()) {
                Json mj = new Json().str("client_id", m.clientId()).str("host", m.host());
                if (m.groupInstanceId().isPresent()) {
                    mj.str("instance_id", m.groupInstanceId().get());
                }
                // a consumer group's member (ConsumerGroupDescribe): its epoch and target as the broker said
                if (m.memberEpoch().isPresent()) {
                    mj.num("member_epoch", m.memberEpoch().get());
                }
                if (m.targetAssignment().isPresent()) {
                    mj.raw("target", scenarioParts(m.targetAssignment().get().topicPartitions()));
                }
                ms.add(mj.raw("assignment", scenarioParts(m.assignment().topicPartitions())).done());
            }
            List<String> ct = new ArrayList<>();
            for (Map.Entry<String, TreeMap<Integer, Long>> e : com.entrySet()) {
                Json pj = new Json();
                for (Map.Entry<Integer, Long> q : e.getValue().entrySet()) {
                    pj.num(Integer.toString(q.getKey()), q.getValue());
                }
                ct.add(Json.quote(e.getKey()) + ":" + pj.done());
            }
            boolean consumer = String.valueOf(g.type()).equalsIgnoreCase("consumer");
            Json gj = new Json().str("id", id).str("state", String.valueOf(g.groupState()))
                    .str("group_protocol", consumer ? "consumer" : "classic");
            if (consumer && g.groupEpoch().isPresent()) {
                gj.num("group_epoch", g.groupEpoch().get());
            }
            if (consumer && g.targetAssignmentEpoch().isPresent()) {
                gj.num("assignment_epoch", g.targetAssignmentEpoch().get());
            }
            if (!g.partitionAssignor().isEmpty()) {
                gj.str("assignor", g.partitionAssignor());
            }
            if (!g.members().isEmpty()) {
                gj.raw("members", "[" + String.join(",", ms) + "]");
            }
            gs.add(gj.raw("committed", "{" + String.join(",", ct) + "}").done());
        }
        List<String> ts = new ArrayList<>();
        ends.put("__consumer_offsets", new TreeMap<>());
        for (String t : ends.keySet()) {
            int n = admin.describeTopics(List.of(t)).allTopicNames().get(30, TimeUnit.SECONDS).get(t).partitions().size();
            Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> q = new HashMap<>();
            for (int p = 0; p < n; p++) {
                q.put(new TopicPartition(t, p), org.apache.kafka.clients.admin.OffsetSpec.latest());
            }
            List<Long> le = new ArrayList<>();
            var r = admin.listOffsets(q).all().get(30, TimeUnit.SECONDS);
            for (int p = 0; p < n; p++) {
                le.add(r.get(new TopicPartition(t, p)).offset());
            }
            Json tj = new Json().str("name", t).num("partitions", n).raw("log_end", le.toString().replace(" ", ""));
            ts.add((t.startsWith("__") ? tj.raw("internal", "true") : tj).done());
        }
        // the broker is a Kafka 4: it answers ConsumerGroupDescribe (v0-v1), as the fixture then does
        String json = "{\"comment\": \"made by the fleet (tests/kafka) from a Kafka broker's answers\",\n"
                + " \"consumer_group_describe_max\": 1,\n \"topics\": ["
                + String.join(",\n  ", ts) + "],\n \"groups\": [" + String.join(",\n  ", gs) + "]}\n";
        java.nio.file.Files.writeString(java.nio.file.Path.of(file), json);
        emit(ev("scenario").str("file", file).num("groups", gs.size()));
    }

    /** Partitions as a fixture scenario's assignment: {"t1":[0,1]}. */
    static String scenarioParts(Collection<TopicPartition> tps) {
        TreeMap<String, List<Integer>> a = new TreeMap<>();
        for (TopicPartition tp : tps) {
            a.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(tp.partition());
        }
        List<String> at = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : a.entrySet()) {
            java.util.Collections.sort(e.getValue());
            at.add(Json.quote(e.getKey()) + ":" + e.getValue().toString().replace(" ", ""));
        }
        return "{" + String.join(",", at) + "}";
    }

    static String tpsJson(Collection<TopicPartition> tps) {
        TreeSet<String> s = new TreeSet<>((a, b) -> {
            int i = a.lastIndexOf('-'), k = b.lastIndexOf('-');
            int c = a.substring(0, i).compareTo(b.substring(0, k));
            return c != 0 ? c : Integer.compare(Integer.parseInt(a.substring(i + 1)), Integer.parseInt(b.substring(k + 1)));
        });
        for (TopicPartition tp : tps) {
            s.add(tp.toString());
        }
        List<String> q = new ArrayList<>();
        for (String x : s) {
            q.add(Json.quote(x));
        }
        return "[" + String.join(",", q) + "]";
    }

    /** One consumer and the thread that owns it (a KafkaConsumer is used by one thread only). */
    static final class Member extends Thread implements ConsumerRebalanceListener {
        final String name;
        final String group;
        final Map<String, String> opts;
        final ConcurrentLinkedQueue<String> orders = new ConcurrentLinkedQueue<>();
        final Map<TopicPartition, Long> committed = new ConcurrentHashMap<>();
        final TreeSet<TopicPartition> owned = new TreeSet<>((a, b) -> a.toString().compareTo(b.toString()));
        volatile boolean frozen;
        volatile boolean stalled;
        volatile boolean dead; // crashed: a dead process runs no callbacks
        KafkaConsumer<byte[], byte[]> consumer;

        Member(String name, Map<String, String> opts) {
            super("fleet-" + name);
            this.name = name;
            this.opts = opts;
            this.group = opts.get("group");
            if (group == null || !opts.containsKey("topic")) {
                throw new IllegalArgumentException("join needs group= and topic=");
            }
        }

        void order(String what) {
            orders.add(what);
            KafkaConsumer<byte[], byte[]> c = consumer;
            if (c != null) {
                c.wakeup();
            }
        }

        KafkaConsumer<byte[], byte[]> open() {
            Properties p = new Properties();
            p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
            p.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
            p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            String protocol = opts.getOrDefault("protocol", "classic");
            p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol);
            String assignor = opts.getOrDefault("assignor", protocol.equals("classic") ? "range" : "uniform");
            if (protocol.equals("classic")) {
                Map<String, String> cls = Map.of("range", "RangeAssignor", "roundrobin", "RoundRobinAssignor",
                        "sticky", "StickyAssignor", "cooperative-sticky", "CooperativeStickyAssignor");
                p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG,
                        "org.apache.kafka.clients.consumer." + cls.get(assignor));
                p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, opts.getOrDefault("session", "6000"));
                p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, opts.getOrDefault("heartbeat", "500"));
            } else {
                p.put(ConsumerConfig.GROUP_REMOTE_ASSIGNOR_CONFIG, assignor);
            }
            p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, opts.getOrDefault("poll", "300000"));
            if (opts.containsKey("instance")) {
                p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, opts.get("instance"));
            }
            String commit = opts.getOrDefault("commit", "sync");
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, Boolean.toString(commit.equals("auto")));
            p.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "1000");
            KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p);
            c.subscribe(List.of(opts.get("topic")), this);
            return c;
        }

        Json tagged(String kind) {
            return ev(kind).str("c", name).str("group", group);
        }

        /** The generation and member id the consumer knows now (its own groupMetadata()). */
        Json meta(Json j) {
            try {
                ConsumerGroupMetadata g = consumer.groupMetadata();
                return j.num("gen", g.generationId()).str("member", g.memberId());
            } catch (RuntimeException e) {
                return j.str("meta_error", e.toString());
            }
        }

        void callback(String kind, Collection<TopicPartition> parts) {
            if (dead) {
                return;
            }
            if (kind.equals("assigned")) {
                owned.addAll(parts);
            } else {
                owned.removeAll(parts);
            }
            emit(meta(tagged(kind)).raw("parts", tpsJson(parts)).raw("owned", tpsJson(owned)));
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> parts) {
            callback("revoked", parts);
        }

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> parts) {
            callback("assigned", parts);
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> parts) {
            callback("lost", parts);
        }

        String committedJson() {
            TreeMap<String, Long> sorted = new TreeMap<>();
            for (Map.Entry<TopicPartition, Long> e : committed.entrySet()) {
                sorted.put(e.getKey().toString(), e.getValue());
            }
            Json j = new Json();
            for (Map.Entry<String, Long> e : sorted.entrySet()) {
                j.num(e.getKey(), e.getValue());
            }
            return j.done();
        }

        @Override
        public void run() {
            try {
                consumer = open();
                emit(tagged("started").str("opts", opts.toString()));
                loop();
            } catch (Exception e) {
                emit(tagged("thread_error").str("error", e.toString()));
            }
        }

        /** Polls, commits what it consumed, and obeys the orders it is given between polls. */
        void loop() {
            long lastPoll = 0;
            while (true) {
                String o;
                while ((o = orders.poll()) != null) {
                    switch (o) {
                        case "leave":
                            emit(tagged("leaving"));
                            consumer.close();
                            emit(tagged("left"));
                            MEMBERS.remove(name);
                            return;
                        case "crash":
                            dead = true;
                            emit(tagged("crashed").num("last_poll", lastPoll));
                            consumer.close(CloseOptions.groupMembershipOperation(
                                    CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ZERO));
                            MEMBERS.remove(name);
                            return;
                        case "restart":
                            emit(tagged("restarting"));
                            dead = true;
                            consumer.close(CloseOptions.groupMembershipOperation(
                                    CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ZERO));
                            owned.clear();
                            dead = false;
                            consumer = open();
                            emit(tagged("restarted"));
                            break;
                        case "stall":
                            stalled = true;
                            emit(tagged("stalled").num("last_poll", lastPoll));
                            break;
                        case "resume":
                            stalled = false;
                            emit(tagged("resumed"));
                            break;
                        default:
                            break;
                    }
                }
                if (stalled) {
                    try {
                        Thread.sleep(20); // not polling, on purpose: the heartbeat thread runs alone
                    } catch (InterruptedException e) {
                        return;
                    }
                    continue;
                }
                ConsumerRecords<byte[], byte[]> recs;
                try {
                    recs = consumer.poll(Duration.ofMillis(100));
                } catch (WakeupException e) {
                    continue;
                } catch (RuntimeException e) {
                    emit(tagged("poll_error").str("error", e.toString()));
                    continue;
                }
                lastPoll = System.currentTimeMillis();
                if (recs.isEmpty() || frozen || opts.getOrDefault("commit", "sync").equals("none")) {
                    continue;
                }
                Map<TopicPartition, OffsetAndMetadata> offs = new HashMap<>();
                for (TopicPartition tp : recs.partitions()) {
                    List<ConsumerRecord<byte[], byte[]>> l = recs.records(tp);
                    offs.put(tp, new OffsetAndMetadata(l.get(l.size() - 1).offset() + 1));
                }
                if (opts.getOrDefault("commit", "sync").equals("auto")) {
                    continue; // the client commits by itself; what it committed is not seen here
                }
                long sent = System.currentTimeMillis(); // the commit's time is between this and the line's "t"
                try {
                    consumer.commitSync(offs);
                } catch (WakeupException e) {
                    consumer.commitSync(offs);
                } catch (RuntimeException e) {
                    emit(tagged("commit_error").str("error", e.toString()));
                    continue;
                }
                Json j = new Json();
                for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offs.entrySet()) {
                    committed.put(e.getKey(), e.getValue().offset());
                    j.num(e.getKey().toString(), e.getValue().offset());
                }
                emit(meta(tagged("commit")).raw("offsets", j.done()).num("sent", sent));
            }
        }
    }

    /** A member in a JVM of its own (a fleet of one), so that a crash can be a SIGKILL. */
    static final class Child {
        final String name;
        final Process proc;
        final java.io.PrintStream in;

        Child(String name, String joinLine) throws Exception {
            this.name = name;
            List<String> cmd = new ArrayList<>();
            cmd.add(System.getProperty("java.home") + "/bin/java");
            for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                if (!a.startsWith("-Xmx") && !a.startsWith("-agentlib") && !a.startsWith("-javaagent")) {
                    cmd.add(a);
                }
            }
            cmd.add("-Xmx96m");
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add(Fleet.class.getName());
            cmd.add(bootstrap);
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.redirectError(ProcessBuilder.Redirect.INHERIT);
            proc = pb.start();
            in = new java.io.PrintStream(proc.getOutputStream(), true, StandardCharsets.UTF_8);
            Thread copy = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(proc.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        // its own acks and lifecycle lines are its business; the callbacks are the truth
                        if (!l.matches("^\\{\"t\":[0-9]+,\"ev\":\"(ack|ready|bye)\".*")) {
                            synchronized (OUT) {
                                System.out.println(l);
                                System.out.flush();
                            }
                        }
                    }
                } catch (java.io.IOException e) {
                    // the child is gone
                }
            }, "child-" + name);
            copy.setDaemon(true);
            copy.start();
            send(joinLine);
        }

        void send(String line) {
            in.println(line);
        }

        void order(String what) throws Exception {
            if (what.equals("crash")) {
                emit(ev("crashed").str("c", name).str("how", "SIGKILL of its JVM").num("pid", proc.pid()));
                proc.destroyForcibly();
                proc.waitFor(10, TimeUnit.SECONDS);
                CHILDREN.remove(name);
            } else {
                send(what + " " + name);
            }
        }
    }

    /** A flat JSON object written field by field. */
    static final class Json {
        private final StringBuilder b = new StringBuilder("{");

        private Json key(String k) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append(quote(k)).append(':');
            return this;
        }

        Json str(String k, String v) {
            key(k).b.append(v == null ? "null" : quote(v));
            return this;
        }

        Json num(String k, long v) {
            key(k).b.append(v);
            return this;
        }

        Json raw(String k, String v) {
            key(k).b.append(v);
            return this;
        }

        String done() {
            return b.toString() + "}";
        }

        static String quote(String s) {
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    q.append('\\').append(c);
                } else if (c < 0x20) {
                    q.append(String.format("\\u%04x", (int) c));
                } else {
                    q.append(c);
                }
            }
            return q.append('"').toString();
        }
    }
}
