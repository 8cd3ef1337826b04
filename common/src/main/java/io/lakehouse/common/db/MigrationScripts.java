package io.lakehouse.common.db;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The versioned SQL migrations of Flyway locations on the classpath, each with the version and checksum Flyway
 * records for it: {@code V1_9_5__name.sql} is version {@code 1.9.5}; the checksum is the CRC32 of its lines read as
 * UTF-8, without line ends and without a byte-order mark (Flyway's {@code ChecksumCalculator}; the migrations hold no
 * placeholders, so the text Flyway sums is the file's).
 */
final class MigrationScripts {

    private static final Pattern VERSIONED = Pattern.compile("V([^_].*?)__.*\\.sql");
    private static final String CLASSPATH = "classpath:";

    private MigrationScripts() {
    }

    /**
     * Version → checksum of every migration under {@code locations}; empty when the locations hold anything else (a
     * repeatable or callback script, a Java migration, any other file, a file system location, a version found
     * twice): only Flyway itself can tell whether such a schema is current.
     */
    static Optional<Map<String, Integer>> read(ClassLoader loader, List<String> locations) {
        Map<String, Integer> scripts = new TreeMap<>();
        try {
            for (String location : locations) {
                if (location.contains(":") && !location.startsWith(CLASSPATH)) {
                    return Optional.empty();
                }
                String dir = location.substring(location.startsWith(CLASSPATH) ? CLASSPATH.length() : 0)
                        .replaceAll("^/+|/+$", "");
                for (URL url : Collections.list(loader.getResources(dir))) {
                    if (!readInto(scripts, url, dir)) {
                        return Optional.empty();
                    }
                }
            }
        } catch (IOException | URISyntaxException e) {
            return Optional.empty();
        }
        return Optional.of(scripts);
    }

    private static boolean readInto(Map<String, Integer> scripts, URL url, String dir)
            throws IOException, URISyntaxException {
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection jarConnection) {
            connection.setUseCaches(false);
            try (JarFile jar = jarConnection.getJarFile()) {
                for (JarEntry entry : Collections.list(jar.entries())) {
                    if (!entry.isDirectory() && entry.getName().startsWith(dir + "/")
                            && !add(scripts, entry.getName(), () -> jar.getInputStream(entry))) {
                        return false;
                    }
                }
            }
            return true;
        }
        if ("file".equals(url.getProtocol())) {
            try (Stream<Path> files = Files.walk(Path.of(url.toURI()))) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    if (!add(scripts, file.getFileName().toString(), () -> Files.newInputStream(file))) {
                        return false;
                    }
                }
            }
            return true;
        }
        return false;
    }

    private interface Content {
        InputStream open() throws IOException;
    }

    /**
     * Adds a versioned migration; false for anything else: a file that is not {@code V…__….sql} may be a migration
     * Flyway finds and this check cannot read (a Java migration's class, a script under another prefix or suffix).
     */
    private static boolean add(Map<String, Integer> scripts, String path, Content content) throws IOException {
        String name = path.substring(path.lastIndexOf('/') + 1);
        Matcher versioned = VERSIONED.matcher(name);
        if (!versioned.matches()) {
            return false;
        }
        try (InputStream in = content.open()) {
            return scripts.put(versioned.group(1).replace('_', '.'), checksum(in)) == null;
        }
    }

    static int checksum(InputStream in) throws IOException {
        CRC32 crc = new CRC32();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            if (!line.isEmpty() && line.charAt(0) == '\uFEFF') {
                line = line.substring(1);
            }
            crc.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return (int) crc.getValue();
    }
}
