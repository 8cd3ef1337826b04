package io.lakehouse.sparkjobs.api;

import java.util.List;

/**
 * The driver's last lines.
 *
 * @param live read from the running (or still present) driver pod; false: the lines kept when the job ended
 */
public record LogTail(boolean live, List<String> lines) {}
