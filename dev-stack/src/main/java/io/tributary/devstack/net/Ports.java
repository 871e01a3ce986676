package io.tributary.devstack.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Port selection and checks for the embedded engines and the processes the dev stack starts. */
public final class Ports {

    private Ports() {}

    /** A port the kernel considers free right now (the caller binds it soon after; a race is possible). */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("cannot find a free TCP port", e);
        }
    }

    /** Distinct free ports: all are held open until every one is chosen. */
    public static int[] freePorts(int count) {
        ServerSocket[] sockets = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                sockets[i] = new ServerSocket(0);
                ports[i] = sockets[i].getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new IllegalStateException("cannot find " + count + " free TCP ports", e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    /**
     * True when nothing listens on the port. Binding the wildcard address catches listeners on any address on Linux;
     * the connect probe catches a listener on loopback where the bind alone would not (BSD semantics).
     */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
        } catch (IOException e) {
            return false;
        }
        try (Socket probe = new Socket()) {
            probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return false;
        } catch (IOException refused) {
            return true;
        }
    }

    /**
     * Fails with a message that tells the user which variable moves the port, e.g.
     * "port 1883 (MQTT) is in use — set MQTT_PORT".
     */
    public static void requireFree(int port, String what, String envVariable) {
        if (!isFree(port)) {
            throw new PortInUseException(port, what, envVariable);
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // the port is released either way
            }
        }
    }

    /** A port needed by the dev stack is held by another process. */
    public static final class PortInUseException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortInUseException(int port, String what, String envVariable) {
            super("port " + port + " (" + what + ") is in use"
                    + (envVariable == null ? "" : " — set " + envVariable + " to another port"));
        }
    }
}
