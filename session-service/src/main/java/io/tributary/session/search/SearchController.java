package io.tributary.session.search;

import io.tributary.session.admin.SessionView;
import io.tributary.session.retained.RetainedAdminController.RetainedView;
import io.tributary.session.retained.RetainedStore;
import io.tributary.session.store.SessionRecord;
import io.tributary.session.store.StoredSubscription;
import io.tributary.session.web.ApiException;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Searches of the admin console, {@code /api/v1/search}: keyset pages (the next page starts after the last key of
 * this one, returned as {@code next}, null on the last page), so every page is one short index range scan.
 */
@RestController
@RequestMapping(path = "/api/v1/search", produces = "application/json")
public class SearchController {

    public static final int MAX_LIMIT = 1000;

    public record SessionResults(
            List<SessionView> items, @Nullable String next) {}

    /** A subscription and who holds it; {@code shareGroup} is the group of a {@code $share/{group}/{filter}}. */
    public record HeldSubscription(
            String clientId,
            String filter,
            @Nullable String shareGroup,
            int qos,
            boolean noLocal,
            boolean retainAsPublished,
            int retainHandling,
            @Nullable Integer subscriptionId,
            Instant createdAt,
            boolean connected,
            @Nullable String nodeId) {}

    public record SubscriptionKey(String filter, String clientId) {}

    public record SubscriptionResults(
            List<HeldSubscription> items, @Nullable SubscriptionKey next) {}

    public record RetainedResults(
            List<RetainedView> items, @Nullable String next) {}

    private final SessionSearch sessions;
    private final SubscriptionSearch subscriptions;
    private final RetainedStore retained;

    public SearchController(SessionSearch sessions, SubscriptionSearch subscriptions, RetainedStore retained) {
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.retained = retained;
    }

    @GetMapping("/sessions")
    @Transactional(readOnly = true)
    public SessionResults searchSessions(
            @RequestParam(required = false) String clientIdPrefix,
            @RequestParam(required = false) String username,
            @RequestParam(required = false) String nodeId,
            @RequestParam(required = false) Boolean connected,
            @RequestParam(required = false) String after,
            @RequestParam(defaultValue = "50") int limit) {
        checkLimit(limit);
        List<SessionRecord> rows = sessions.page(
                new SessionSearch.Criteria(clientIdPrefix, username, nodeId, connected), after, limit + 1);
        boolean more = rows.size() > limit;
        List<SessionView> items =
                rows.stream().limit(limit).map(SessionView::of).toList();
        return new SessionResults(items, more ? items.get(items.size() - 1).clientId() : null);
    }

    @GetMapping("/subscriptions")
    @Transactional(readOnly = true)
    public SubscriptionResults searchSubscriptions(
            @RequestParam(required = false) String filterPrefix,
            @RequestParam(required = false) String clientId,
            @RequestParam(required = false) String afterFilter,
            @RequestParam(required = false) String afterClientId,
            @RequestParam(defaultValue = "50") int limit) {
        checkLimit(limit);
        if ((afterFilter == null) != (afterClientId == null)) {
            throw ApiException.badRequest("afterFilter and afterClientId go together");
        }
        List<SubscriptionSearch.Held> rows =
                subscriptions.page(filterPrefix, clientId, afterFilter, afterClientId, limit + 1);
        boolean more = rows.size() > limit;
        List<HeldSubscription> items =
                rows.stream().limit(limit).map(SearchController::view).toList();
        HeldSubscription last = items.isEmpty() ? null : items.get(items.size() - 1);
        return new SubscriptionResults(items, more ? new SubscriptionKey(last.filter(), last.clientId()) : null);
    }

    @GetMapping("/retained")
    public RetainedResults searchRetained(
            @RequestParam(defaultValue = "") String prefix,
            @RequestParam(required = false) String after,
            @RequestParam(defaultValue = "50") int limit) {
        checkLimit(limit);
        List<RetainedView> items = retained.pageAfter(prefix, after, limit + 1).stream()
                .map(RetainedView::of)
                .toList();
        boolean more = items.size() > limit;
        items = items.stream().limit(limit).toList();
        return new RetainedResults(items, more ? items.get(items.size() - 1).topic() : null);
    }

    private static HeldSubscription view(SubscriptionSearch.Held held) {
        StoredSubscription s = held.subscription();
        return new HeldSubscription(
                s.clientId(),
                s.filter(),
                shareGroup(s.filter()),
                s.qos(),
                s.noLocal(),
                s.retainAsPublished(),
                s.retainHandling(),
                s.subscriptionId(),
                s.createdAt(),
                held.connected(),
                held.nodeId());
    }

    /** The share name of {@code $share/{group}/{filter}} (MQTT 5.0 section 4.8.2), else null. */
    static String shareGroup(String filter) {
        if (!filter.startsWith("$share/")) {
            return null;
        }
        int end = filter.indexOf('/', "$share/".length());
        return end < 0 ? null : filter.substring("$share/".length(), end);
    }

    private static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badRequest("limit must be 1.." + MAX_LIMIT + ": " + limit);
        }
    }
}
