package io.lakehouse.sparkjobs.domain;

import java.security.SecureRandom;
import java.util.Locale;

/** Names of jobs and of what goes with them. */
public final class JobNames {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final SecureRandom RANDOM = new SecureRandom();
    static final int SUFFIX = 5;

    private JobNames() {}

    /** The ConfigMap holding a typed script. */
    public static String configMap(String job) {
        return "sparkjob-" + job;
    }

    /**
     * A name from the source's file ({@code jobs/daily_load.py} gives {@code daily-load-x7k2p}); a
     * typed script gives {@code pyspark-x7k2p}.
     */
    public static String suggest(LaunchForm form) {
        String base = "pyspark";
        if (form.source() != null && form.source().path() != null) {
            String file = form.source().path().substring(form.source().path().lastIndexOf('/') + 1);
            int dot = file.lastIndexOf('.');
            base = dns1035(dot > 0 ? file.substring(0, dot) : file);
        }
        return withSuffix(base);
    }

    /** {@code <base>-<5 random>}, the base cut so that the whole stays within {@link LaunchRules#MAX_NAME} + 6. */
    public static String withSuffix(String base) {
        String cut = base.length() > LaunchRules.MAX_NAME ? base.substring(0, LaunchRules.MAX_NAME) : base;
        cut = cut.replaceAll("-+$", "");
        StringBuilder name = new StringBuilder(cut).append('-');
        for (int i = 0; i < SUFFIX; i++) {
            name.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }

    static String dns1035(String text) {
        String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^[^a-z]+", "")
                .replaceAll("-+$", "");
        if (s.length() > LaunchRules.MAX_NAME - SUFFIX - 1) {
            s = s.substring(0, LaunchRules.MAX_NAME - SUFFIX - 1).replaceAll("-+$", "");
        }
        return s.isEmpty() ? "job" : s;
    }
}
