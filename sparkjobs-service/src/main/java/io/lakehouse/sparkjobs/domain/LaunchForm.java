package io.lakehouse.sparkjobs.domain;

import java.util.List;
import java.util.Map;

/**
 * The launch form as a user sends it. Either {@code profile} (a spark-connect instance of the
 * namespace) or {@code image}; the rest has defaults ({@link LaunchRules#normalize}).
 */
public record LaunchForm(
        String name,
        String profile,
        String image,
        String pullSecret,
        Source source,
        String mainClass,
        Driver driver,
        Executor executor,
        List<String> arguments,
        Map<String, String> sparkConf,
        Integer ttlHours) {

    /**
     * Where the code comes from: {@code script} (typed PySpark, kept in a ConfigMap), {@code s3} (an
     * object {@code path} of the namespace bucket {@code bucket}, the name of its bucket Secret: endpoint,
     * region and keys come from it), {@code git} ({@code repository} URL, {@code branch}, {@code path},
     * the user's personal token in the namespace Secret {@code credentialsSecret}, key {@code token}).
     */
    public record Source(String type, String script, String bucket, String path, String repository,
            String branch, String credentialsSecret) {}

    public record Driver(Integer cores, String memory) {}

    public record Executor(Integer instances, Integer cores, String memory) {}

    /** The same form with another name (a relaunch). */
    public LaunchForm withName(String newName) {
        return new LaunchForm(newName, profile, image, pullSecret, source, mainClass, driver, executor, arguments,
                sparkConf, ttlHours);
    }

    /** The form as stored and annotated: no script text (the ConfigMap and the database hold it). */
    public LaunchForm withoutScript() {
        if (source == null || source.script() == null) {
            return this;
        }
        Source s = new Source(source.type(), null, source.bucket(), source.path(), source.repository(),
                source.branch(), source.credentialsSecret());
        return new LaunchForm(name, profile, image, pullSecret, s, mainClass, driver, executor, arguments, sparkConf,
                ttlHours);
    }

    public LaunchForm withScript(String script) {
        Source s = new Source(source.type(), script, source.bucket(), source.path(), source.repository(),
                source.branch(), source.credentialsSecret());
        return new LaunchForm(name, profile, image, pullSecret, s, mainClass, driver, executor, arguments, sparkConf,
                ttlHours);
    }
}
