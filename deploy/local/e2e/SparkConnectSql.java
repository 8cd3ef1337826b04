import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connect.SparkSession;

/**
 * Runs SQL statements through a Spark Connect server with the JVM client (spark-connect-client-jvm, from Maven
 * Central) and prints each statement's rows, one a line. A single-file program for the real-engines check (which
 * compiles it once and runs it twice):
 *
 * <pre>
 * SPARK_CONNECT_AUTHENTICATE_TOKEN=... java --add-opens=java.base/java.nio=ALL-UNNAMED -cp 'CLIENT_LIB/*' \
 *     SparkConnectSql.java sc://localhost:PORT STATEMENT...
 * </pre>
 *
 * The token comes from the environment, as the pods of the namespace get it, never on a command line; the JVM client
 * takes it as the connection string's {@code token} parameter. Exit code 1 with the server's error when a statement
 * fails.
 */
public final class SparkConnectSql {

  public static void main(String[] args) {
    String remote = args[0];
    String token = System.getenv("SPARK_CONNECT_AUTHENTICATE_TOKEN");
    if (token != null && !token.isEmpty()) {
      remote += (remote.substring("sc://".length()).contains("/") ? "" : "/") + ";token=" + token;
    }
    SparkSession spark = SparkSession.builder().remote(remote).getOrCreate();
    int rc = 0;
    try {
      for (int i = 1; i < args.length; i++) {
        System.out.println("> " + args[i]);
        List<Row> rows = spark.sql(args[i]).collectAsList();
        rows.forEach(System.out::println);
      }
    } catch (Exception e) { // also SparkException, checked for Java, which the client throws undeclared
      System.out.println("ERROR: " + e.getMessage());
      rc = 1;
    } finally {
      spark.close();
    }
    System.exit(rc);
  }
}
