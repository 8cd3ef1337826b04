package io.lakehouse.sparkjobs.domain;

import io.lakehouse.common.problem.FieldError;
import io.lakehouse.common.validation.Names;
import io.lakehouse.sparkjobs.domain.LaunchForm.Driver;
import io.lakehouse.sparkjobs.domain.LaunchForm.Executor;
import io.lakehouse.sparkjobs.domain.LaunchForm.Source;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a launch form and fills in its defaults. Pure: everything a user typed is checked here,
 * before anything is stored or created. User text never reaches a shell; these rules still refuse
 * what would look like an option, climb out of {@code /opt/job}, or be expanded by Kubernetes
 * ({@code $(VAR)} in container args and env).
 */
public final class LaunchRules {

    /** Driver pod {@code <name>-driver} and UI Service {@code <name>-ui-svc} must stay DNS labels after a relaunch suffix. */
    public static final int MAX_NAME = 49;
    static final int MAX_ARGUMENTS = 64;
    static final int MAX_TEXT = 1024;
    static final int MAX_CONF = 64;
    static final int MAX_TTL_HOURS = 24 * 365;

    private static final Pattern MEMORY = Pattern.compile("[1-9][0-9]{0,5}[mg]");
    private static final Pattern IMAGE = Pattern.compile("[a-z0-9][a-zA-Z0-9._/:@-]{0,254}");
    private static final Pattern CONF_KEY = Pattern.compile("spark\\.[A-Za-z0-9_.-]{1,200}");
    private static final Pattern RELATIVE_PATH = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._/-]{0,511}");
    private static final Pattern BRANCH = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._/-]{0,254}");
    private static final Pattern CLASS_NAME = Pattern.compile("([A-Za-z_$][A-Za-z0-9_$]*\\.)*[A-Za-z_$][A-Za-z0-9_$]*");
    private static final Set<String> OWNED_KEYS = Set.of("spark.master", "spark.app.name", "spark.driver.cores",
            "spark.driver.memory", "spark.executor.cores", "spark.executor.memory", "spark.executor.instances",
            "spark.sql.defaultCatalog");
    private static final List<String> OWNED_PREFIXES = List.of("spark.kubernetes.", "spark.submit.",
            "spark.sql.catalog.lakehouse");

    /** The JVM options of driver and executors: the job's own, which the service may extend. */
    public static final List<String> JAVA_OPTIONS =
            List.of("spark.driver.extraJavaOptions", "spark.executor.extraJavaOptions");

    private LaunchRules() {}

    /** Every problem of the form (empty when it can be launched). */
    public static List<FieldError> check(LaunchForm form, int maxScriptBytes) {
        List<FieldError> errors = new ArrayList<>();
        if (form.name() != null && !(Names.isDns1035Label(form.name()) && form.name().length() <= MAX_NAME)) {
            errors.add(new FieldError("name", "must be a DNS-1035 label (lowercase letters, digits, '-', starting with"
                    + " a letter) of at most " + MAX_NAME + " characters"));
        }
        checkImage(form, errors);
        checkSource(form, maxScriptBytes, errors);
        checkSizes(form.driver(), form.executor(), errors);
        checkArguments(form.arguments(), errors);
        checkConf(form.sparkConf(), errors);
        if (form.ttlHours() != null && (form.ttlHours() < 1 || form.ttlHours() > MAX_TTL_HOURS)) {
            errors.add(new FieldError("ttlHours", "must be between 1 and " + MAX_TTL_HOURS));
        }
        return errors;
    }

    /** The form with every default filled in (call after {@link #check} found nothing). */
    public static LaunchForm normalize(LaunchForm form, String name, int defaultTtlHours) {
        Driver d = form.driver() == null ? new Driver(null, null) : form.driver();
        Executor e = form.executor() == null ? new Executor(null, null, null) : form.executor();
        return new LaunchForm(name, form.profile(), form.image(), form.pullSecret(), form.source(), form.mainClass(),
                new Driver(or(d.cores(), 1), or(d.memory(), "1g")),
                new Executor(or(e.instances(), 1), or(e.cores(), 1), or(e.memory(), "1g")),
                form.arguments() == null ? List.of() : List.copyOf(form.arguments()),
                form.sparkConf() == null ? Map.of() : new LinkedHashMap<>(form.sparkConf()),
                or(form.ttlHours(), defaultTtlHours));
    }

    /** The file the job runs, relative to {@code /opt/job}. */
    public static String mainFile(LaunchForm form) {
        return "script".equals(form.source().type()) ? "main.py" : form.source().path();
    }

    private static void checkImage(LaunchForm form, List<FieldError> errors) {
        boolean profile = form.profile() != null;
        boolean image = form.image() != null;
        if (profile == image) {
            errors.add(new FieldError("profile", "give either profile (a spark-connect instance) or image"));
        }
        if (profile && !Names.isDns1123Label(form.profile())) {
            errors.add(new FieldError("profile", "is not an instance name"));
        }
        if (image && !IMAGE.matcher(form.image()).matches()) {
            errors.add(new FieldError("image", "is not an image reference"));
        }
        if (form.pullSecret() != null && (profile || !Names.isDns1123Label(form.pullSecret()))) {
            errors.add(new FieldError("pullSecret", profile ? "comes from the profile" : "is not a Secret name"));
        }
    }

    private static void checkSource(LaunchForm form, int maxScriptBytes, List<FieldError> errors) {
        Source s = form.source();
        if (s == null || s.type() == null) {
            errors.add(new FieldError("source.type", "must be script, s3 or git"));
            return;
        }
        switch (s.type()) {
            case "script" -> {
                if (s.script() == null || s.script().isBlank()) {
                    errors.add(new FieldError("source.script", "must not be empty"));
                } else if (s.script().getBytes(StandardCharsets.UTF_8).length > maxScriptBytes) {
                    errors.add(new FieldError("source.script", "is larger than " + maxScriptBytes + " bytes"));
                }
                onlyFor(s.bucket() == null && s.path() == null && s.repository() == null && s.branch() == null && s.credentialsSecret() == null,
                        "script", errors);
            }
            case "s3" -> {
                if (s.bucket() == null || !Names.isDns1123Label(s.bucket())) {
                    errors.add(new FieldError("source.bucket", "must name a bucket of the namespace"));
                }
                checkPath(s.path(), errors);
                onlyFor(s.script() == null && s.repository() == null && s.branch() == null
                        && s.credentialsSecret() == null, "s3", errors);
            }
            case "git" -> {
                if (s.repository() == null || !httpUrl(s.repository())) {
                    errors.add(new FieldError("source.repository", "must be an http(s) URL without credentials, query or fragment"));
                }
                if (s.branch() != null && (!BRANCH.matcher(s.branch()).matches() || s.branch().contains("..")
                        || s.branch().endsWith("/") || s.branch().endsWith(".lock"))) {
                    errors.add(new FieldError("source.branch", "is not a branch name (no leading '-', no '..')"));
                }
                checkPath(s.path(), errors);
                if (s.credentialsSecret() != null && !Names.isDns1123Label(s.credentialsSecret())) {
                    errors.add(new FieldError("source.credentialsSecret", "must name a Secret of the namespace"));
                }
                onlyFor(s.script() == null && s.bucket() == null, "git", errors);
            }
            default -> errors.add(new FieldError("source.type", "must be script, s3 or git"));
        }
        String file = "script".equals(s.type()) ? "main.py" : s.path();
        if (form.mainClass() != null) {
            if (!CLASS_NAME.matcher(form.mainClass()).matches() || form.mainClass().length() > 255) {
                errors.add(new FieldError("mainClass", "is not a class name"));
            } else if (file == null || !file.endsWith(".jar")) {
                errors.add(new FieldError("mainClass", "needs a .jar source (s3 or git path)"));
            }
        } else if (file != null && !file.endsWith(".py")) {
            errors.add(new FieldError("source.path", "must be a .py file (or give mainClass for a .jar)"));
        }
    }

    private static void onlyFor(boolean ok, String type, List<FieldError> errors) {
        if (!ok) {
            errors.add(new FieldError("source", "holds fields a " + type + " source does not take"));
        }
    }

    private static void checkPath(String path, List<FieldError> errors) {
        if (path == null || !RELATIVE_PATH.matcher(path).matches() || path.contains("..") || path.contains("//")
                || path.endsWith("/")) {
            errors.add(new FieldError("source.path", "must be a relative file path (letters, digits, '._-/',"
                    + " no leading '/' or '-', no '..')"));
        }
    }

    private static boolean httpUrl(String value) {
        if (value.length() > 512 || value.startsWith("-") || hasControl(value)) {
            return false;
        }
        try {
            URI uri = new URI(value);
            return ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null;
        } catch (java.net.URISyntaxException e) {
            return false;
        }
    }

    private static void checkSizes(Driver driver, Executor executor, List<FieldError> errors) {
        if (driver != null) {
            range("driver.cores", driver.cores(), 1, 16, errors);
            memory("driver.memory", driver.memory(), errors);
        }
        if (executor != null) {
            range("executor.instances", executor.instances(), 1, 100, errors);
            range("executor.cores", executor.cores(), 1, 16, errors);
            memory("executor.memory", executor.memory(), errors);
        }
    }

    private static void range(String field, Integer value, int min, int max, List<FieldError> errors) {
        if (value != null && (value < min || value > max)) {
            errors.add(new FieldError(field, "must be between " + min + " and " + max));
        }
    }

    private static void memory(String field, String value, List<FieldError> errors) {
        if (value != null && !MEMORY.matcher(value).matches()) {
            errors.add(new FieldError(field, "must be JVM memory such as 512m or 2g"));
        }
    }

    private static void checkArguments(List<String> arguments, List<FieldError> errors) {
        if (arguments == null) {
            return;
        }
        if (arguments.size() > MAX_ARGUMENTS) {
            errors.add(new FieldError("arguments", "at most " + MAX_ARGUMENTS));
            return;
        }
        for (int i = 0; i < arguments.size(); i++) {
            if (!plainText(arguments.get(i))) {
                errors.add(new FieldError("arguments[" + i + "]", textRule()));
            }
        }
    }

    private static void checkConf(Map<String, String> conf, List<FieldError> errors) {
        if (conf == null) {
            return;
        }
        if (conf.size() > MAX_CONF) {
            errors.add(new FieldError("sparkConf", "at most " + MAX_CONF + " properties"));
            return;
        }
        conf.forEach((key, value) -> {
            if (!CONF_KEY.matcher(key).matches()) {
                errors.add(new FieldError("sparkConf." + printable(key), "only spark.* properties"));
            } else if (owned(key)) {
                errors.add(new FieldError("sparkConf." + key, "is set by the service (use the form's fields)"));
            } else if (!plainText(value)) {
                errors.add(new FieldError("sparkConf." + key, textRule()));
            }
        });
    }

    /**
     * With the cluster's CA bundle the service appends its truststore options to these JVM options of the job
     * ({@link #JAVA_OPTIONS}); Spark splits them like a shell, so a quote or backslash of the job's could swallow
     * the service's options into one of its own words: such values are refused then.
     */
    public static List<FieldError> checkAppendableJavaOptions(LaunchForm form) {
        if (form.sparkConf() == null) {
            return List.of();
        }
        return JAVA_OPTIONS.stream()
                .filter(key -> form.sparkConf().get(key) != null
                        && form.sparkConf().get(key).matches(".*[\\\\'\"].*"))
                .map(key -> new FieldError("sparkConf." + key, "must hold no quote or backslash: the cluster's CA"
                        + " bundle options are appended to it"))
                .toList();
    }

    /** Keys the service sets itself (sizing, image, account, namespace, the profile's catalog). */
    public static boolean owned(String key) {
        return OWNED_KEYS.contains(key) || OWNED_PREFIXES.stream().anyMatch(key::startsWith);
    }

    private static boolean plainText(String value) {
        return value != null && value.length() <= MAX_TEXT && !hasControl(value) && !value.contains("$(");
    }

    private static String textRule() {
        return "must be text of at most " + MAX_TEXT + " characters, without control characters or '$('";
    }

    private static boolean hasControl(String value) {
        return value.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
    }

    private static String printable(String key) {
        String clean = key.replaceAll("[^A-Za-z0-9_.-]", "?");
        return clean.length() > 64 ? clean.substring(0, 64) : clean;
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
