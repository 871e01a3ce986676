package io.tributary.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI description the service serves at {@code /api/v1/openapi} is the one checked in as
 * {@code session-service/openapi.json}, from which the admin console's TypeScript types are generated: a change of
 * the admin API that is not regenerated fails here.
 */
@Order(3) // before OutageIntegrationTest stops the shared engines
class OpenApiDescriptionTest extends ServiceTestBase {

    /** The checked-in description, relative to the module directory (Surefire's working directory). */
    static final Path CHECKED_IN = Path.of("openapi.json");
    /** {@code -Dopenapi.write=true} rewrites {@link #CHECKED_IN} from the served description instead of comparing. */
    private static final String WRITE_PROPERTY = "openapi.write";

    static final String REGENERATE = "regenerate it with: ./mvnw -B -ntp -q -Dconsole.skip=true"
            + " verify -pl session-service -am -Dtest=OpenApiDescriptionTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -D" + WRITE_PROPERTY + "=true (then rebuild the console: its types are generated from the file)";

    private String served() throws Exception {
        Response r = get("/api/v1/openapi");
        assertThat(r.status()).as("GET /api/v1/openapi: %s", r.body()).isEqualTo(200);
        // The pretty printer ends lines the platform's way; the file has \n, whatever the platform.
        return json.writerWithDefaultPrettyPrinter()
                        .writeValueAsString(r.body())
                        .replace("\r\n", "\n") + "\n";
    }

    @Test
    void servedDescriptionIsTheCheckedInOne() throws Exception {
        String served = served();
        if (Boolean.getBoolean(WRITE_PROPERTY)) {
            Files.writeString(CHECKED_IN, served, StandardCharsets.UTF_8);
            return;
        }
        assertThat(Files.exists(CHECKED_IN))
                .as("session-service/%s is missing; %s", CHECKED_IN, REGENERATE)
                .isTrue();
        assertThat(served)
                .as("the served OpenAPI description differs from session-service/%s; %s", CHECKED_IN, REGENERATE)
                .isEqualTo(Files.readString(CHECKED_IN, StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }

    @Test
    void servedOnlyWithTheAdminToken() throws Exception {
        for (String path : List.of("/api/v1/openapi", "/api/v1/openapi.yaml")) {
            HttpResponse<String> anonymous =
                    http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode())
                    .as("%s without a token: %s", path, anonymous.body())
                    .isEqualTo(401);
            HttpResponse<String> admin = http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(admin.statusCode()).as("%s with the admin token", path).isEqualTo(200);
            assertThat(admin.body()).contains("/api/v1/sessions/{clientId}/disconnect");
        }
        for (String path : List.of("/v3/api-docs", "/swagger-ui.html", "/swagger-ui/index.html")) {
            assertThat(get(path).status())
                    .as("%s: nothing outside the admin token filter", path)
                    .isEqualTo(404);
        }
    }

    @Test
    void describesTheAdminApiOnly() throws Exception {
        JsonNode paths = json.readTree(served()).get("paths");
        assertThat(paths.propertyNames()).isNotEmpty().allMatch(path -> path.startsWith("/api/v1/"));
    }

    /** springdoc numbers clashing method names (list_1, get_2) in the order it meets them: not stable names. */
    @Test
    void operationIdsAreUniqueNames() throws Exception {
        List<String> ids = new ArrayList<>();
        json.readTree(served())
                .get("paths")
                .forEach(
                        path -> path.forEach(op -> ids.add(op.get("operationId").asString())));
        assertThat(ids).doesNotHaveDuplicates().noneMatch(id -> id.matches(".*_\\d+"));
    }
}
