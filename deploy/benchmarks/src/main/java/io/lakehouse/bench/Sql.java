package io.lakehouse.bench;

import java.util.List;

/** Queries on the local PostgreSQL as its superuser, through the psql next to the server's binary (bounded, 60 s). */
final class Sql {

  private final int port;
  private final String psql = AuthzBench.psql();

  Sql(int port) {
    this.port = port;
  }

  /** Whether psql was found next to a local PostgreSQL server (else every query answers "?"). */
  boolean available() {
    return psql != null;
  }

  /** The rows of {@code query}, fields separated by '|', or "?" + the error when it failed. */
  String query(String query) {
    if (psql == null) {
      return "?psql of the local PostgreSQL not found";
    }
    return Proc.run(List.of("env", "PGPASSWORD=postgres", psql, "-X", "-h", "127.0.0.1", "-p", Integer.toString(port),
        "-U", "postgres", "-d", "lakehouse", "-v", "ON_ERROR_STOP=1", "-Atc", query));
  }

  /** A single number from {@code query}, or -1 when it failed. */
  long number(String query) {
    String out = query(query).trim();
    return out.matches("-?\\d+") ? Long.parseLong(out) : -1;
  }
}
