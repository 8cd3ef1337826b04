import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Creates the missing topics of the local broker in one JVM (TopicCommand
 * creates one topic per JVM: 8 JVMs took 10-37 s on 2 loaded cores).
 * Compiled and run by deploy/local/lib/kafka.sh against the broker's lib jars.
 *
 * <pre>java -cp TOOLS:LIB/* EnsureTopics BOOTSTRAP TOPIC:PARTITIONS...</pre>
 *
 * Prints the names of the topics it created, one a line.
 */
public final class EnsureTopics {

  private EnsureTopics() {
  }

  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "30000");
    try (Admin admin = Admin.create(props)) {
      Set<String> existing = admin.listTopics().names().get();
      List<NewTopic> missing = new ArrayList<>();
      for (int i = 1; i < args.length; i++) {
        int colon = args[i].lastIndexOf(':');
        String name = args[i].substring(0, colon);
        if (!existing.contains(name)) {
          missing.add(new NewTopic(name, Integer.parseInt(args[i].substring(colon + 1)), (short) 1));
        }
      }
      for (NewTopic topic : missing) {
        try {
          admin.createTopics(List.of(topic)).all().get();
          System.out.println(topic.name());
        } catch (java.util.concurrent.ExecutionException e) {
          if (!(e.getCause() instanceof TopicExistsException)) {
            throw e;
          }
        }
      }
    }
  }
}
