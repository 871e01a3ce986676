package io.tributary.transport.listener.tls;

import io.netty.handler.ssl.SslContext;
import io.tributary.common.concurrent.DaemonThreads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server TLS context, replaced when its PEM files change. A dedicated thread compares the files' modification
 * time, size and inode key every reload interval (polling rather than a WatchService: Kubernetes updates mounted
 * Secrets by swapping a symlink, which directory watches on the file's own directory do not report reliably).
 * A change builds a new context off the event loops; new connections use it, established connections keep the
 * session they negotiated. A build that fails (a half-written file, a key that does not match the certificate
 * yet) keeps the previous context and is retried at the next check, so a rotation never takes TLS down.
 */
public final class ReloadingSslContext implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReloadingSslContext.class);

    private final TlsContextLoader loader;
    private final ScheduledExecutorService poller;
    private volatile TlsContextLoader.Loaded current;
    /** Stamps of the files the current context was built from (or the last failed attempt, to log it once). */
    private List<Object> loadedStamps;

    private List<Object> failedStamps;
    private volatile long reloads;

    /** Loads the files now (start-up fails on a bad file) and polls them every {@code interval}. */
    public ReloadingSslContext(TlsContextLoader loader, Duration interval) throws Exception {
        this.loader = loader;
        this.loadedStamps = stamps();
        this.current = loader.load();
        log.info(
                "TLS certificate loaded: subject '{}', expires {}, provider {}",
                current.certificate().getSubjectX500Principal().getName(),
                current.certificate().getNotAfter(),
                loader.provider());
        this.poller = DaemonThreads.scheduler("tls-reload");
        long ms = Math.max(1, interval.toMillis());
        poller.scheduleWithFixedDelay(this::checkSafely, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** The context new connections must use. */
    public SslContext context() {
        return current.context();
    }

    /** The certificate presented to new connections. */
    public java.security.cert.X509Certificate certificate() {
        return current.certificate();
    }

    /** How many times a changed set of files was loaded since start (for tests and logs). */
    public long reloads() {
        return reloads;
    }

    private void checkSafely() {
        try {
            check();
        } catch (RuntimeException e) {
            log.warn("TLS certificate check failed: {}", e.toString());
        }
    }

    /** One check; package-private so tests can run it without waiting for the poller. */
    synchronized boolean check() {
        List<Object> now = stamps();
        if (now.equals(loadedStamps)) {
            return false;
        }
        try {
            TlsContextLoader.Loaded loaded = loader.load();
            // Stamps read before the load: a file changed during the load is seen again at the next check.
            current = loaded;
            loadedStamps = now;
            failedStamps = null;
            reloads++;
            log.info(
                    "TLS certificate reloaded: subject '{}', expires {}",
                    loaded.certificate().getSubjectX500Principal().getName(),
                    loaded.certificate().getNotAfter());
            return true;
        } catch (Exception e) {
            if (!now.equals(failedStamps)) {
                log.error(
                        "TLS files changed but cannot be loaded; still serving the previous certificate: {}",
                        e.getMessage());
                failedStamps = now;
            }
            return false;
        }
    }

    /** Modification time, size and file key of each file (following symlinks); a missing file stamps as null. */
    private List<Object> stamps() {
        List<Object> stamps = new ArrayList<>();
        for (Path file : loader.files()) {
            try {
                BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
                stamps.add(List.of(a.lastModifiedTime().toMillis(), a.size(), String.valueOf(a.fileKey())));
            } catch (IOException e) {
                stamps.add("missing");
            }
        }
        return stamps;
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
