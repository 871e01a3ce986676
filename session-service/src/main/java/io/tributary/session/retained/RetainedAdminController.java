package io.tributary.session.retained;

import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.tributary.session.web.ApiException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * Admin REST API for retained messages. The topic is a query parameter, not a path segment: MQTT topics contain
 * {@code /} and may start with or consist of it.
 */
@RestController
@RequestMapping(path = "/api/v1/retained", produces = "application/json")
public class RetainedAdminController {

    /** One retained message; {@code payloadUtf8} is null when the payload is not valid UTF-8. */
    public record RetainedView(
            String topic,
            int qos,
            int payloadSize,
            String payloadBase64,
            @Nullable String payloadUtf8,
            @Nullable Instant expiresAt,
            Instant updatedAt) {

        public static RetainedView of(StoredRetained r) {
            return new RetainedView(
                    r.topic(),
                    r.qos(),
                    r.payload().length,
                    Base64.getEncoder().encodeToString(r.payload()),
                    utf8OrNull(r.payload()),
                    r.expiresAt(),
                    r.updatedAt());
        }
    }

    public record RetainedPage(List<RetainedView> items, int page, int size, long total) {}

    private final RetainedStore store;

    public RetainedAdminController(RetainedStore store) {
        this.store = store;
    }

    /** Retained messages whose topic starts with {@code prefix}, ordered by topic. */
    @GetMapping
    public RetainedPage listRetained(
            @RequestParam(defaultValue = "") String prefix,
            @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "50") int size) {
        if (page < 0) {
            throw ApiException.badRequest("page must not be negative: " + page);
        }
        if (size < 1 || size > 1000) {
            throw ApiException.badRequest("size must be 1..1000: " + size);
        }
        List<RetainedView> items =
                store.page(prefix, page, size).stream().map(RetainedView::of).toList();
        return new RetainedPage(items, page, size, store.count(prefix));
    }

    /**
     * Removes a topic's retained message from the store. Subscribers are not told (as with an MQTT empty retained
     * PUBLISH, which also only stops later deliveries).
     */
    @ApiResponse(responseCode = "404", description = "the topic has no retained message")
    @DeleteMapping
    @ResponseStatus(HttpStatus.NO_CONTENT)
    public void deleteRetained(@RequestParam String topic) {
        if (topic.isEmpty()) {
            throw ApiException.badRequest("topic must not be empty");
        }
        if (!store.delete(topic)) {
            throw ApiException.notFound("no retained message on topic " + topic);
        }
    }

    private static String utf8OrNull(byte[] payload) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(payload))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
