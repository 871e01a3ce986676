package io.tributary.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.cli.client.ApiClient;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The generated client's object mapper, which also keeps the last response body it read. The generated API methods
 * read a 2xx body into a String and hand it to {@link #readValue(String, TypeReference)}; the CLI prints that text as
 * it came ({@code --json}, and the TSV columns in the server's order), which the typed models cannot give back.
 * {@link ApiClient} hands each API a {@link #copy()}, so the copies share the holder.
 */
final class BodyCapturingMapper extends ObjectMapper {

    private static final long serialVersionUID = 1L;

    private final transient AtomicReference<String> lastBody;

    BodyCapturingMapper(AtomicReference<String> lastBody) {
        super(ApiClient.createDefaultObjectMapper());
        this.lastBody = lastBody;
    }

    private BodyCapturingMapper(BodyCapturingMapper source) {
        super(source);
        this.lastBody = source.lastBody;
    }

    @Override
    public ObjectMapper copy() {
        return new BodyCapturingMapper(this);
    }

    @Override
    public <T> T readValue(String content, TypeReference<T> valueTypeRef) throws JsonProcessingException {
        lastBody.set(content);
        return super.readValue(content, valueTypeRef);
    }
}
