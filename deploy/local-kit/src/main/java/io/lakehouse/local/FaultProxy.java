package io.lakehouse.local;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A fault-injecting HTTP proxy for the local Kubernetes API (the fault suite, deploy/faults): it forwards every
 * request to the upstream server, or answers it itself with a fault drawn at the configured rates (500; 429 with
 * Retry-After; 409 on writes; 410 Gone on watches) and delays the forwarded ones. It counts what passes, so the suite
 * can see hot loops (peak requests per second) and extra writes (mutating requests).
 *
 * <p>Works at the HTTP/1.1 message level without a library: it reads one request head, decides, then forwards that
 * request with {@code Connection: close} (one request per upstream connection, so every request is seen) and pipes
 * bytes both ways; a WebSocket upgrade (fabric8 watches) is piped as is for its whole life.
 *
 * <p>Control endpoint (not forwarded): {@code GET /_faults} prints the counters as JSON; {@code POST
 * /_faults?rate500=0.2&rate429=0.1&rate409=0.1&rate410=0.5&latencyMs=300} sets the faults (a missing parameter is 0);
 * {@code POST /_faults/reset} zeroes the counters. A 410 rate above 0 also drops the open watches, as an API server
 * restart would: the clients watch again and meet the 410s.
 */
public final class FaultProxy implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(FaultProxy.class.getName());
  private static final int MAX_HEAD_BYTES = 64 * 1024;

  /** The faults in force; rates are probabilities per request in [0, 1]. */
  record Faults(double rate500, double rate429, double rate409, double rate410, long latencyMs) {

    static final Faults NONE = new Faults(0, 0, 0, 0, 0);

    static Faults parse(String query) {
      Map<String, String> values = new TreeMap<>();
      if (query != null) {
        for (String pair : query.split("&")) {
          int eq = pair.indexOf('=');
          if (eq > 0) {
            values.put(pair.substring(0, eq), pair.substring(eq + 1));
          }
        }
      }
      return new Faults(rate(values, "rate500"), rate(values, "rate429"), rate(values, "rate409"),
          rate(values, "rate410"), Long.parseLong(values.getOrDefault("latencyMs", "0")));
    }

    private static double rate(Map<String, String> values, String key) {
      double rate = Double.parseDouble(values.getOrDefault(key, "0"));
      if (rate < 0 || rate > 1) {
        throw new IllegalArgumentException(key + " must be within [0, 1]: " + rate);
      }
      return rate;
    }

    String json() {
      return String.format(Locale.ROOT,
          "{\"rate500\":%s,\"rate429\":%s,\"rate409\":%s,\"rate410\":%s,\"latencyMs\":%d}",
          rate500, rate429, rate409, rate410, latencyMs);
    }
  }

  /** One parsed request head. */
  record Head(String method, String target, List<String> headerLines) {

    boolean isWatch() {
      return target.contains("watch=true") || target.contains("watch=1");
    }

    boolean isWrite() {
      return switch (method) {
        case "POST", "PUT", "PATCH", "DELETE" -> true;
        default -> false;
      };
    }

    String header(String name) {
      for (String line : headerLines) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }

    boolean isWebSocket() {
      String upgrade = header("Upgrade");
      return upgrade != null && upgrade.equalsIgnoreCase("websocket");
    }
  }

  private final String upstreamHost;
  private final int upstreamPort;
  private final AtomicReference<Faults> faults = new AtomicReference<>(Faults.NONE);
  private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "fault-proxy");
    thread.setDaemon(true);
    return thread;
  });
  private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
  /** Requests per epoch second, for the peak rate (a hot loop shows as a high peak). */
  private final Map<Long, AtomicLong> perSecond = new ConcurrentHashMap<>();
  /** Open watch connections: setting a 410 rate drops them, so that clients watch again and meet the 410s. */
  private final Set<Socket> watches = ConcurrentHashMap.newKeySet();
  private ServerSocket server;

  public FaultProxy(URI upstream) {
    this.upstreamHost = upstream.getHost();
    this.upstreamPort = upstream.getPort();
  }

  /** Listens on 127.0.0.1:{@code port}; returns at once, connections are served on daemon threads. */
  public FaultProxy start(int port) throws IOException {
    server = new ServerSocket(port, 200, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return this;
  }

  public int port() {
    return server.getLocalPort();
  }

  void setFaults(Faults value) {
    faults.set(value);
    if (value.rate410() > 0) {
      for (Socket watch : watches) {
        try {
          watch.close();
        } catch (IOException e) {
          // closed already
        }
      }
    }
  }

  private void acceptLoop() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        connections.execute(() -> serve(client));
      } catch (IOException e) {
        if (!server.isClosed()) {
          LOG.log(Level.WARNING, "accept failed", e);
        }
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = client.getOutputStream();
      Head head = readHead(in);
      if (head == null) {
        return;
      }
      if (head.target().startsWith("/_faults")) {
        control(head, out);
        return;
      }
      count(head);
      Faults now = faults.get();
      int fault = drawFault(head, now);
      if (fault != 0) {
        skipBody(head, in);
        increment("injected" + fault);
        respond(out, fault, statusBody(fault), fault == 429 ? "Retry-After: 1\r\n" : "");
        return;
      }
      if (now.latencyMs() > 0) {
        Thread.sleep(now.latencyMs());
      }
      if (head.isWatch()) {
        watches.add(client);
      }
      forward(head, in, out);
    } catch (IOException e) {
      LOG.log(Level.FINE, "connection ended", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      watches.remove(client);
    }
  }

  /** 0 for none, else the status to answer with; each fault applies only to the requests it makes sense for. */
  static int drawFault(Head head, Faults faults) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    if (head.isWatch() && random.nextDouble() < faults.rate410()) {
      return 410;
    }
    if (random.nextDouble() < faults.rate500()) {
      return 500;
    }
    if (random.nextDouble() < faults.rate429()) {
      return 429;
    }
    if (head.isWrite() && random.nextDouble() < faults.rate409()) {
      return 409;
    }
    return 0;
  }

  private void count(Head head) {
    increment("requests");
    increment("method." + head.method());
    if (head.isWrite()) {
      increment("mutating");
      // which writes, for the suite's report (paths name objects, never carry their content)
      LOG.info(() -> "write " + head.method() + " " + head.target());
    }
    if (head.isWatch()) {
      increment("watches");
    }
    perSecond.computeIfAbsent(System.currentTimeMillis() / 1000, second -> new AtomicLong()).incrementAndGet();
  }

  private void increment(String counter) {
    counters.computeIfAbsent(counter, name -> new AtomicLong()).incrementAndGet();
  }

  private void forward(Head head, InputStream clientIn, OutputStream clientOut) throws IOException {
    try (Socket upstream = new Socket(upstreamHost, upstreamPort)) {
      OutputStream upOut = upstream.getOutputStream();
      upOut.write(rewriteHead(head).getBytes(StandardCharsets.ISO_8859_1));
      upOut.flush();
      // client -> upstream (the request body, or WebSocket frames) on another thread; the response here
      connections.execute(() -> pipe(clientIn, upOut, upstream));
      pipe(upstream.getInputStream(), clientOut, null);
    }
  }

  /** One request per upstream connection, so each one passes through the fault decision; upgrades kept for watches. */
  static String rewriteHead(Head head) {
    StringBuilder sb = new StringBuilder(head.method()).append(' ').append(head.target()).append(" HTTP/1.1\r\n");
    boolean webSocket = head.isWebSocket();
    for (String line : head.headerLines()) {
      String name = line.substring(0, Math.max(line.indexOf(':'), 0)).trim().toLowerCase(Locale.ROOT);
      boolean hopByHop = name.equals("connection") || name.equals("keep-alive") || name.equals("http2-settings")
          || (name.equals("upgrade") && !webSocket);
      if (!hopByHop) {
        sb.append(line).append("\r\n");
      }
    }
    sb.append(webSocket ? "Connection: Upgrade\r\n" : "Connection: close\r\n").append("\r\n");
    return sb.toString();
  }

  private static void pipe(InputStream from, OutputStream to, Socket closeAfter) {
    byte[] buffer = new byte[16 * 1024];
    try {
      int n;
      while ((n = from.read(buffer)) >= 0) {
        to.write(buffer, 0, n);
        to.flush();
      }
    } catch (IOException e) {
      // the other side closed: the connection ends
    } finally {
      if (closeAfter != null) {
        try {
          closeAfter.shutdownOutput();
        } catch (IOException e) {
          // already closed
        }
      }
    }
  }

  private void control(Head head, OutputStream out) throws IOException {
    String target = head.target();
    if (head.method().equals("POST") && target.startsWith("/_faults/reset")) {
      counters.clear();
      perSecond.clear();
      respond(out, 200, countersJson(), "");
    } else if (head.method().equals("POST")) {
      int q = target.indexOf('?');
      try {
        Faults value = Faults.parse(q < 0 ? null : target.substring(q + 1));
        setFaults(value);
        LOG.info("faults now " + value.json());
        respond(out, 200, value.json(), "");
      } catch (IllegalArgumentException e) {
        respond(out, 400, "{\"error\":\"" + e.getMessage().replace('"', '\'') + "\"}", "");
      }
    } else {
      respond(out, 200, countersJson(), "");
    }
  }

  String countersJson() {
    StringBuilder sb = new StringBuilder("{\"faults\":").append(faults.get().json());
    long peak = perSecond.values().stream().mapToLong(AtomicLong::get).max().orElse(0);
    sb.append(",\"peakPerSecond\":").append(peak);
    new TreeMap<>(counters).forEach((name, value) -> sb.append(",\"").append(name).append("\":").append(value.get()));
    return sb.append('}').toString();
  }

  private static String statusBody(int code) {
    String reason = switch (code) {
      case 410 -> "Expired";
      case 429 -> "TooManyRequests";
      case 409 -> "Conflict";
      default -> "InternalError";
    };
    return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"injected by "
        + "the fault proxy\",\"reason\":\"" + reason + "\",\"code\":" + code + "}";
  }

  private static void respond(OutputStream out, int code, String body, String extraHeaders) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + code + " " + reasonPhrase(code) + "\r\nContent-Type: application/json\r\n"
        + "Content-Length: " + bytes.length + "\r\nConnection: close\r\n" + extraHeaders + "\r\n";
    out.write(head.getBytes(StandardCharsets.ISO_8859_1));
    out.write(bytes);
    out.flush();
  }

  private static String reasonPhrase(int code) {
    return switch (code) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 409 -> "Conflict";
      case 410 -> "Gone";
      case 429 -> "Too Many Requests";
      default -> "Internal Server Error";
    };
  }

  /** Reads the request body we answer without forwarding, so closing does not reset the connection under the reply. */
  private static void skipBody(Head head, InputStream in) throws IOException {
    String length = head.header("Content-Length");
    if (length != null) {
      in.skipNBytes(Long.parseLong(length.trim()));
    }
  }

  /** The request line and headers, or null when the client closed first. */
  static Head readHead(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int last4 = 0; // the last four bytes read, to find the blank line that ends the head
    int b;
    while ((b = in.read()) >= 0) {
      bytes.write(b);
      last4 = (last4 << 8) | b;
      if (last4 == 0x0d0a0d0a) {
        break;
      }
      if (bytes.size() > MAX_HEAD_BYTES) {
        throw new IOException("request head over " + MAX_HEAD_BYTES + " bytes");
      }
    }
    if (last4 != 0x0d0a0d0a) {
      return null;
    }
    String[] lines = bytes.toString(StandardCharsets.ISO_8859_1).split("\r\n");
    String[] requestLine = lines[0].split(" ");
    if (requestLine.length < 3) {
      throw new IOException("not an HTTP request line: " + lines[0]);
    }
    List<String> headers = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (!lines[i].isEmpty()) {
        headers.add(lines[i]);
      }
    }
    return new Head(requestLine[0], requestLine[1], headers);
  }

  @Override
  public void close() throws IOException {
    server.close();
    connections.shutdownNow();
  }
}
