package io.tributary.session.metrics;

import io.tributary.session.config.SessionServiceProperties;
import io.tributary.session.store.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.stereotype.Component;

/** Re-reads the number of connected sessions from PostgreSQL at a fixed pace (default every 10 s). */
@Component
public class ConnectedSessionsRefresher implements SchedulingConfigurer {

    private static final Logger log = LoggerFactory.getLogger(ConnectedSessionsRefresher.class);

    private final SessionStore sessions;
    private final SessionMetrics metrics;
    private final SessionServiceProperties properties;

    public ConnectedSessionsRefresher(
            SessionStore sessions, SessionMetrics metrics, SessionServiceProperties properties) {
        this.sessions = sessions;
        this.metrics = metrics;
        this.properties = properties;
    }

    @Override
    public void configureTasks(ScheduledTaskRegistrar registrar) {
        registrar.addFixedDelayTask(this::refresh, properties.metrics().connectedRefresh());
    }

    public void refresh() {
        try {
            metrics.resetConnected(sessions.count(Boolean.TRUE));
        } catch (RuntimeException e) {
            log.warn("Cannot refresh the connected-sessions gauge: {}", e.toString());
        }
    }
}
