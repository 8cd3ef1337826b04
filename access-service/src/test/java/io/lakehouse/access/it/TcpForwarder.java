package io.lakehouse.access.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A port that forwards to a server once opened, and refuses connections until then: the server is
 * "down" for whoever uses the port, without stopping the real one that other tests share.
 */
final class TcpForwarder implements AutoCloseable {

    private final int port;
    private final String targetHost;
    private final int targetPort;
    private ServerSocket server;

    TcpForwarder(String targetHost, int targetPort) {
        this.port = freePort();
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    int port() {
        return port;
    }

    /** Starts accepting and forwarding. */
    synchronized void open() throws IOException {
        server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "forwarder-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(targetHost, targetPort);
                pipe(client.getInputStream(), target.getOutputStream(), client, target);
                pipe(target.getInputStream(), client.getOutputStream(), client, target);
            } catch (IOException e) {
                // closed, or the target is gone: the client sees the connection drop
            }
        }
    }

    private static void pipe(InputStream in, OutputStream out, Socket a, Socket b) {
        Thread t = new Thread(() -> {
            try (a; b) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed
            }
        });
        t.setDaemon(true);
        t.start();
    }

    @Override
    public synchronized void close() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private static int freePort() {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
