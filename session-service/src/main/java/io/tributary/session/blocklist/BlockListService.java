package io.tributary.session.blocklist;

import io.swagger.v3.oas.annotations.media.Schema;
import io.tributary.common.net.IpRange;
import io.tributary.common.session.ConnectApi;
import io.tributary.common.session.LimitsApi;
import io.tributary.session.admin.SessionAdminService;
import io.tributary.session.auth.BlockListCheck;
import io.tributary.session.auth.ClientAddresses;
import io.tributary.session.auth.ConnectRefusedException;
import io.tributary.session.kafka.FeedTopics;
import io.tributary.session.kafka.RecordSender;
import io.tributary.session.store.StatementPipeline;
import io.tributary.session.takeover.DownlinkCommands;
import io.tributary.session.web.ApiException;
import java.net.InetAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The block list: client ids, user names and source addresses that may not connect. A CONNECT is checked twice:
 * before authentication (a banned client costs no password hash), and again inside its session transaction under a
 * shared advisory lock. Adding an entry takes that lock exclusively, so it waits for CONNECTs in progress, and then
 * closes every live connection the entry matches with DISCONNECT commands on the nodes' downlink topics (MQTT 5
 * reason 0x98, administrative action: 0x8A banned is a CONNACK code only), in the same transaction: no connection
 * slips between the check and the sweep.
 */
@Service
public class BlockListService implements BlockListCheck {

    private static final Logger log = LoggerFactory.getLogger(BlockListService.class);

    private final BlockListStore store;
    private final FeedTopics topics;
    private final RecordSender sender;
    private final Clock clock;

    public BlockListService(BlockListStore store, FeedTopics topics, RecordSender sender, Clock clock) {
        this.store = store;
        this.topics = topics;
        this.sender = sender;
        this.clock = clock;
    }

    /** @throws ConnectRefusedException (banned) when an entry matches the CONNECT */
    @Override
    public void check(ConnectApi.ConnectRequest request) {
        String ip = ip(request.remoteAddress());
        Optional<BlockEntry> entry = store.match(request.clientId(), request.username(), ip);
        if (entry.isPresent()) {
            throw new ConnectRefusedException(
                    ConnectApi.RefusalReason.BANNED,
                    "banned",
                    "banned: " + describe(entry.get()) + " is on the block list");
        }
    }

    /**
     * {@link #check} for a batch of CONNECTs with one query.
     *
     * @return per request (same order), its refusal, or null when no entry matches it
     */
    @Override
    public StatementPipeline.Read<List<ConnectRefusedException>> checkAll(List<ConnectApi.ConnectRequest> requests) {
        return store.candidatesRead(clientIds(requests), usernames(requests))
                .map(entries -> refusals(requests, entries));
    }

    private static List<ConnectRefusedException> refusals(
            List<ConnectApi.ConnectRequest> requests, List<BlockEntry> entries) {
        List<ConnectRefusedException> refusals = new ArrayList<>(requests.size());
        for (ConnectApi.ConnectRequest request : requests) {
            refusals.add(
                    entries.isEmpty()
                            ? null
                            : entries.stream()
                                    .filter(e -> matches(e, request))
                                    .findFirst()
                                    .map(e -> new ConnectRefusedException(
                                            ConnectApi.RefusalReason.BANNED,
                                            "banned",
                                            "banned: " + describe(e) + " is on the block list"))
                                    .orElse(null));
        }
        return refusals;
    }

    private static List<String> clientIds(List<ConnectApi.ConnectRequest> requests) {
        return requests.stream().map(ConnectApi.ConnectRequest::clientId).toList();
    }

    private static List<String> usernames(List<ConnectApi.ConnectRequest> requests) {
        return requests.stream().map(ConnectApi.ConnectRequest::username).toList();
    }

    /** What {@link BlockListStore#match} asks of PostgreSQL, for an entry already read. */
    private static boolean matches(BlockEntry e, ConnectApi.ConnectRequest request) {
        if (e.clientId() != null) {
            return e.clientId().equals(request.clientId());
        }
        if (e.username() != null) {
            return e.username().equals(request.username());
        }
        InetAddress address = address(ip(request.remoteAddress()));
        return address != null && IpRange.parse(e.ip()).contains(address);
    }

    /**
     * {@link #checkLocked} for a batch: takes the shared lock once for the transaction, then checks them all.
     *
     * @return per request (same order), its refusal, or null
     */
    public List<ConnectRefusedException> checkAllLocked(List<ConnectApi.ConnectRequest> requests) {
        List<ConnectRefusedException> refusals =
                refusals(requests, store.lockSharedAndReadCandidates(clientIds(requests), usernames(requests)));
        for (int i = 0; i < refusals.size(); i++) {
            if (refusals.get(i) != null) {
                log.warn(
                        "CONNECT refused: client '{}' from {}: {} (entry added during its CONNECT)",
                        requests.get(i).clientId().replaceAll("\\p{Cntrl}", "?"),
                        ip(requests.get(i).remoteAddress()),
                        refusals.get(i).getMessage());
            }
        }
        return refusals;
    }

    /** The check inside a CONNECT's transaction, holding the shared lock until it commits. */
    public void checkLocked(ConnectApi.ConnectRequest request) {
        store.lockShared();
        try {
            check(request);
        } catch (ConnectRefusedException e) {
            log.warn(
                    "CONNECT refused: client '{}' from {}: {} (entry added during its CONNECT)",
                    request.clientId().replaceAll("\\p{Cntrl}", "?"),
                    ip(request.remoteAddress()),
                    e.getMessage());
            throw e;
        }
    }

    /** Adds an entry and closes the live connections it matches; the answer says how many. */
    @Transactional
    public Added add(BlockRequest body) {
        if (body == null) {
            throw ApiException.badRequest("request body is required");
        }
        BlockRequest r = body.checked();
        store.lockExclusive();
        long id;
        try {
            id = store.insert(r.clientId(), r.username(), r.ip(), r.reason(), clock.instant());
        } catch (DuplicateKeyException e) {
            throw ApiException.conflict("the block list has an entry for " + describe(r) + " already");
        }
        List<BlockListStore.LiveConnection> live = new ArrayList<>();
        if (r.clientId() != null) {
            live.addAll(store.liveByClientId(r.clientId()));
        } else if (r.username() != null) {
            live.addAll(store.liveByUsername(r.username()));
        } else {
            IpRange range = IpRange.parse(r.ip());
            store.forEachLive(c -> {
                if (range.contains(address(ip(c.remoteAddress())))) {
                    live.add(c);
                }
            });
        }
        List<ProducerRecord<byte[], byte[]>> commands = new ArrayList<>(live.size());
        for (BlockListStore.LiveConnection c : live) {
            topics.ensureDownlink(c.nodeId());
            // 0x8A (banned) is a CONNACK code only; a DISCONNECT says administrative action (MQTT 5 3.14.2.1).
            commands.add(DownlinkCommands.disconnect(
                    c.nodeId(), c.clientId(), c.epoch(), DownlinkCommands.ADMINISTRATIVE_ACTION));
        }
        // Awaited inside the transaction: if Kafka cannot take the commands the entry is not added (503), so an
        // entry never stands while connections it matches live on unnoticed.
        sender.sendAndAwait(commands);
        log.info(
                "Block list entry {} added ({}{}): {} live connection(s) closed",
                id,
                describe(r),
                r.reason() == null ? "" : ", reason '" + r.reason() + "'",
                live.size());
        return new Added(get(id), live.size());
    }

    /** An entry as stored, and how many live connections it closed when added. */
    @Schema(name = "BlockEntryAdded") // the schema names of the description are simple names: "Added" says little
    public record Added(BlockEntry entry, int disconnected) {}

    public BlockEntry get(long id) {
        return store.find(id).orElseThrow(() -> ApiException.notFound("no block list entry " + id));
    }

    public Page list(int page, int size) {
        if (page < 0) {
            throw ApiException.badRequest("page must not be negative: " + page);
        }
        if (size < 1 || size > SessionAdminService.MAX_PAGE_SIZE) {
            throw ApiException.badRequest("size must be 1.." + SessionAdminService.MAX_PAGE_SIZE + ": " + size);
        }
        return new Page(store.page((long) page * size, size), page, size, store.count());
    }

    /** @param total entries over all pages */
    @Schema(name = "BlockListPage")
    public record Page(List<BlockEntry> items, int page, int size, long total) {}

    public void delete(long id) {
        BlockEntry entry = get(id);
        if (!store.delete(id)) {
            throw ApiException.notFound("no block list entry " + id);
        }
        log.info("Block list entry {} removed ({})", id, describe(entry));
    }

    /** The IP entries for transport nodes; ranges null when {@code knownVersion} is current. */
    public LimitsApi.BlockedIps blockedIps(String knownVersion) {
        String version = store.ipVersion();
        return new LimitsApi.BlockedIps(version, version.equals(knownVersion) ? null : store.ipRanges());
    }

    /** The address part of a remote address as the transport sends it, or null when there is none. */
    static String ip(String remoteAddress) {
        String ip = ClientAddresses.ip(remoteAddress);
        if (ip.equals("unknown")) {
            return null;
        }
        int scope = ip.indexOf('%');
        String literal = scope >= 0 ? ip.substring(0, scope) : ip;
        // Only a literal goes to PostgreSQL's inet, which would fail the CONNECT on anything else.
        return address(literal) == null ? null : literal;
    }

    private static InetAddress address(String literal) {
        if (literal == null) {
            return null;
        }
        try {
            IpRange single = IpRange.parse(literal);
            return InetAddress.getByAddress(single.network());
        } catch (IllegalArgumentException | java.net.UnknownHostException e) {
            return null;
        }
    }

    private static String describe(BlockEntry e) {
        return e.clientId() != null
                ? "client id '" + e.clientId() + "'"
                : e.username() != null ? "user name '" + e.username() + "'" : "address " + e.ip();
    }

    private static String describe(BlockRequest r) {
        return r.clientId() != null
                ? "client id '" + r.clientId() + "'"
                : r.username() != null ? "user name '" + r.username() + "'" : "address " + r.ip();
    }
}
