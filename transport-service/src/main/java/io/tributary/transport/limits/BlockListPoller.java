package io.tributary.transport.limits;

import io.tributary.common.net.IpRange;
import io.tributary.common.net.IpRangeSet;
import io.tributary.common.session.LimitsApi;
import io.tributary.kafka.sessionclient.SessionServicePoller;
import io.tributary.transport.sessionclient.SessionServiceClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the node's copy of the block list's IP entries, fetched from session-service every {@code refresh} (with the
 * version it has, so an unchanged list costs a few bytes), so a blocked address is refused at its CONNECT without a
 * session-service call. The copy only saves work: session-service checks the whole block list at every CONNECT it
 * is asked about, and closes live connections itself when an entry is added, so a node whose copy is a few seconds
 * old (or that cannot reach session-service, and keeps its last copy) lets no blocked client in. Chosen over a
 * compacted Kafka topic read by every node: no extra topic and consumer per node, no catch-up at start-up, and the
 * list is small.
 */
public final class BlockListPoller extends SessionServicePoller<LimitsApi.BlockedIps> {

    private static final Logger log = LoggerFactory.getLogger(BlockListPoller.class);

    private final SessionServiceClient sessions;
    private final ConnectAdmission admission;
    private volatile String version;

    public BlockListPoller(SessionServiceClient sessions, ConnectAdmission admission, Duration refresh) {
        super("Block list", "block-list-poller", refresh);
        this.sessions = sessions;
        this.admission = admission;
    }

    @Override
    protected CompletableFuture<LimitsApi.BlockedIps> fetch() {
        return sessions.blockedIps(version);
    }

    @Override
    protected void apply(LimitsApi.BlockedIps answer, boolean first) {
        if (answer.ranges() == null) {
            return; // unchanged since the version sent
        }
        List<IpRange> ranges = new ArrayList<>(answer.ranges().size());
        for (String r : answer.ranges()) {
            try {
                ranges.add(IpRange.parse(r));
            } catch (IllegalArgumentException e) {
                log.warn("Block list: entry '{}' is not an IP range, ignored: {}", r, e.getMessage());
            }
        }
        admission.blockedIps(new IpRangeSet(ranges));
        if (version != null || !ranges.isEmpty()) {
            log.info("Block list: {} IP entries (version {})", ranges.size(), answer.version());
        }
        version = answer.version();
    }

    @Override
    protected int known() {
        return admission.blockedIps().size();
    }
}
