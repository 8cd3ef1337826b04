import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Places new consumer groups at the end of their topics, in one JVM, before the services that use them
 * start: an end-to-end check's services then see only the events of their own run (no replay of the
 * topics' history, no partition taken from a running stack), and no event of the run is missed while
 * a consumer waits for its partitions (what auto.offset.reset=latest would risk).
 * ConsumerGroupCommand does the same with one JVM per group. Compiled and run by deploy/local/lib/e2e.sh.
 *
 * <pre>java -cp TOOLS:LIB/* PlaceGroups BOOTSTRAP GROUP=TOPIC[,TOPIC...]...</pre>
 */
public final class PlaceGroups {

  private PlaceGroups() {
  }

  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    try (Admin admin = Admin.create(props)) {
      for (int i = 1; i < args.length; i++) {
        String group = args[i].substring(0, args[i].indexOf('='));
        List<String> topics = List.of(args[i].substring(group.length() + 1).split(","));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (TopicDescription topic : admin.describeTopics(topics).allTopicNames().get().values()) {
          topic.partitions().forEach(p -> latest.put(new TopicPartition(topic.name(), p.partition()), OffsetSpec.latest()));
        }
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, info) -> offsets.put(tp, new OffsetAndMetadata(info.offset())));
        admin.alterConsumerGroupOffsets(group, offsets).all().get();
      }
    }
  }
}
