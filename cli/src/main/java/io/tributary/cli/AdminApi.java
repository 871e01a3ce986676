package io.tributary.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.tributary.cli.client.ApiClient;
import io.tributary.cli.client.ApiException;
import io.tributary.cli.client.api.AdminTokenControllerApi;
import io.tributary.cli.client.api.AuthAdminControllerApi;
import io.tributary.cli.client.api.BlockListControllerApi;
import io.tributary.cli.client.api.KafkaViewControllerApi;
import io.tributary.cli.client.api.OverviewControllerApi;
import io.tributary.cli.client.api.RetainedAdminControllerApi;
import io.tributary.cli.client.api.SessionAdminControllerApi;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * session-service's admin API through the client generated from {@code openapi.json}: the generated API objects, and
 * {@link #call} that runs one of their methods and turns its failure into the CLI's exit codes and messages.
 */
final class AdminApi {

    /** One call of a generated API method. */
    @FunctionalInterface
    interface Call<T> {
        @Nullable
        T run() throws ApiException;
    }

    /** What a call answered: the typed value and the body as the server wrote it (null when there was none). */
    record Answer<T>(@Nullable T value, @Nullable String body) {}

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final String TOKEN_HINT =
            " (token missing, expired or revoked: tributary login, or TRIBUTARY_TOKEN)";

    private final String url;
    private final Supplier<String> token;
    private final AtomicReference<String> lastBody = new AtomicReference<>();
    private final AtomicReference<HttpRequest> lastRequest = new AtomicReference<>();
    private @Nullable ApiClient authenticated;
    private @Nullable ApiClient anonymous;

    /**
     * @param url the server's base URL
     * @param token the bearer token, asked for at the first authenticated call (it may end the command with exit 4)
     */
    AdminApi(String url, Supplier<String> token) {
        this.url = url;
        this.token = token;
    }

    String url() {
        return url;
    }

    AdminTokenControllerApi tokensAnonymous() {
        return new AdminTokenControllerApi(anonymous());
    }

    AdminTokenControllerApi tokens() {
        return new AdminTokenControllerApi(authenticated());
    }

    SessionAdminControllerApi sessions() {
        return new SessionAdminControllerApi(authenticated());
    }

    RetainedAdminControllerApi retained() {
        return new RetainedAdminControllerApi(authenticated());
    }

    AuthAdminControllerApi credentials() {
        return new AuthAdminControllerApi(authenticated());
    }

    BlockListControllerApi blockList() {
        return new BlockListControllerApi(authenticated());
    }

    KafkaViewControllerApi kafka() {
        return new KafkaViewControllerApi(authenticated());
    }

    OverviewControllerApi overview() {
        return new OverviewControllerApi(authenticated());
    }

    /** Runs the call; a refusal, an unreachable server or a rejected token ends the command (exit 1, 3 or 4). */
    <T> Answer<T> call(Call<T> call) {
        lastBody.set(null);
        lastRequest.set(null);
        try {
            T value = call.run();
            return new Answer<>(value, lastBody.get());
        } catch (ApiException e) {
            throw failure(e);
        }
    }

    private CliException failure(ApiException e) {
        if (e.getCode() == 0) {
            return noAnswer(e.getCause() == null ? e : e.getCause());
        }
        HttpRequest request = lastRequest.get();
        String what = request == null ? "" : request.method() + " " + pathAndQuery(request.uri()) + ": ";
        String message = what + e.getCode() + " " + ErrorBody.message(e.getResponseBody());
        if (e.getCode() == 401) {
            boolean sentToken = request != null
                    && request.headers().firstValue("Authorization").isPresent();
            return new CliException(ExitCodes.UNAUTHENTICATED, message + (sentToken ? TOKEN_HINT : ""));
        }
        return new CliException(ExitCodes.REFUSED, message);
    }

    private CliException noAnswer(Throwable cause) {
        if (cause instanceof JsonProcessingException) {
            return new CliException(ExitCodes.REFUSED, "unexpected answer from " + url + ": " + cause.getMessage());
        }
        if (cause instanceof ConnectException) {
            return new CliException(
                    ExitCodes.UNREACHABLE,
                    "cannot reach " + url + " (connection refused): is session-service running there?"
                            + " (--url or TRIBUTARY_URL)");
        }
        if (cause instanceof InterruptedException) {
            return new CliException(ExitCodes.UNREACHABLE, "interrupted");
        }
        if (cause instanceof IOException) {
            return new CliException(ExitCodes.UNREACHABLE, "cannot reach " + url + ": " + cause);
        }
        return new CliException(ExitCodes.REFUSED, "the call to " + url + " failed: " + cause);
    }

    /** The request's path and query as sent, less the path of the base URL. */
    private String pathAndQuery(URI uri) {
        String full = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        String basePath = URI.create(url).getRawPath();
        return basePath != null && !basePath.isEmpty() && full.startsWith(basePath)
                ? full.substring(basePath.length())
                : full;
    }

    private ApiClient authenticated() {
        if (authenticated == null) {
            String bearer = "Bearer " + token.get();
            authenticated = client(bearer);
        }
        return authenticated;
    }

    private ApiClient anonymous() {
        if (anonymous == null) {
            anonymous = client(null);
        }
        return anonymous;
    }

    private ApiClient client(@Nullable String authorization) {
        ApiClient client;
        try {
            URI base = URI.create(url);
            if (base.getHost() == null || !("http".equals(base.getScheme()) || "https".equals(base.getScheme()))) {
                throw new IllegalArgumentException("not an http:// or https:// URL with a host");
            }
            client = new ApiClient(ApiClient.createDefaultHttpClientBuilder(), new BodyCapturingMapper(lastBody), url);
        } catch (IllegalArgumentException e) {
            throw new CliException(
                    ExitCodes.USAGE,
                    "cannot use the server URL '" + url + "' (--url or TRIBUTARY_URL): " + e.getMessage());
        }
        client.setConnectTimeout(CONNECT_TIMEOUT);
        client.setReadTimeout(REQUEST_TIMEOUT);
        client.setRequestInterceptor(builder -> {
            if (authorization != null) {
                builder.header("Authorization", authorization);
            }
            lastRequest.set(builder.copy().build());
        });
        return client;
    }
}
