package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * API.md (written by hand) and the OpenAPI description (generated; {@link OpenApiDescriptionTest} keeps the
 * checked-in file equal to what the service serves) name the same admin endpoints. API.md documents an endpoint in
 * a heading ({@code ### `GET /api/v1/sessions`}) or a list item ({@code - `DELETE /api/v1/auth/blocklist/{id}`: ...});
 * an endpoint that is only mentioned in running text does not count as documented.
 */
class ApiMarkdownTest {

    private static final Path API_MD = Path.of("API.md");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    private static final Pattern ENDPOINT = Pattern.compile("(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^?\\s]*)(\\?\\S*)?");

    /** "METHOD /path" of every admin endpoint API.md documents, query strings left out. */
    static Set<String> documented(String markdown) {
        Set<String> endpoints = new TreeSet<>();
        for (String line : markdown.split("\n")) {
            if (!line.startsWith("#") && !line.startsWith("- ")) {
                continue;
            }
            Matcher span = CODE_SPAN.matcher(line);
            while (span.find()) {
                Matcher endpoint = ENDPOINT.matcher(span.group(1));
                if (endpoint.matches()) {
                    endpoints.add(endpoint.group(1) + " " + endpoint.group(2));
                }
            }
        }
        return endpoints;
    }

    /** "METHOD /path" of every operation of an OpenAPI description. */
    static Set<String> described(JsonNode description) {
        Set<String> endpoints = new TreeSet<>();
        description
                .get("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .propertyNames()
                        .forEach(method -> endpoints.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));
        return endpoints;
    }

    private static Set<String> documented() throws IOException {
        return documented(Files.readString(API_MD, StandardCharsets.UTF_8));
    }

    private static Set<String> described() throws IOException {
        return described(JsonMapper.builder()
                .build()
                .readTree(Files.readString(OpenApiDescriptionTest.CHECKED_IN, StandardCharsets.UTF_8)));
    }

    @Test
    void everyEndpointOfApiMdIsInTheDescription() throws IOException {
        Set<String> missing = new TreeSet<>(documented());
        missing.removeAll(described());
        assertThat(missing)
                .as("documented in session-service/API.md but not served (per openapi.json)")
                .isEmpty();
    }

    @Test
    void everyEndpointOfTheDescriptionIsInApiMd() throws IOException {
        Set<String> missing = new TreeSet<>(described());
        missing.removeAll(documented());
        assertThat(missing)
                .as("served (per openapi.json) but not documented in a heading or list item of"
                        + " session-service/API.md")
                .isEmpty();
    }

    /** The parsing itself: what counts as documenting an endpoint, and what does not. */
    @Test
    void readsHeadingsAndListItemsOnly() {
        String markdown = """
                ### `GET /api/v1/things?page=0&size=50`
                ### `GET /api/v1/a`, `DELETE /api/v1/a/{id}`
                - `POST /api/v1/things`, body `{ "name" }`: `201`. `GET /api/v1/things/{id}`: one.
                Items as in `GET /api/v1/mentioned`; `POST /internal/v1/x` is not admin.
                | 401 | `GET /api/v1/table` |
                """;
        assertThat(documented(markdown))
                .containsExactly(
                        "DELETE /api/v1/a/{id}",
                        "GET /api/v1/a",
                        "GET /api/v1/things",
                        "GET /api/v1/things/{id}",
                        "POST /api/v1/things");
    }
}
