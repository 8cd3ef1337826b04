package io.lakehouse.common.outbox;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The relay's producer: idempotent and acks=all so a subject's order survives retries; no linger,
 * since event latency matters more than batching here (a lone event goes out at once). Records sent
 * while a request is in flight still share the next one, up to 32 KiB per partition. Why not larger:
 * the producer keeps every buffer of that size it ever filled for reuse (its pool, up to
 * {@code buffer.memory}), one per partition per batch in flight: at 256 KiB about a thousand creates
 * left 15 of them (3.75 MiB) in catalog-service's heap for good, and a drained backlog went out no
 * faster (P10 4,100–4,800 events/s either way, docs/benchmarks.md "The relay's producer buffers").
 * Timeouts are short so a Kafka outage shows up as a failed pass (rows stay in the outbox) instead
 * of a blocked thread.
 */
@ApplicationScoped
public class KafkaProducerFactory {

    private final String bootstrapServers;

    KafkaProducerFactory(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    public Producer<String, byte[]> create() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 32 * 1024);
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return new KafkaProducer<>(props);
    }
}
