package io.tributary.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/** The message of an error answer: its JSON {@code message} when it has one, else the body as it came. */
final class ErrorBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorBody() {}

    static String message(@Nullable String body) {
        if (body == null || body.isBlank()) {
            return "(no message)";
        }
        try {
            JsonNode message = JSON.readTree(body).get("message");
            if (message != null && !message.isNull()) {
                return message.isTextual() ? message.asText() : message.toString();
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: shown as it came
        }
        return body.strip();
    }
}
