package io.tributary.session.openapi;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description of the admin REST API, which springdoc generates from the controllers and serves at
 * {@code /api/v1/openapi} (application.yml, {@code springdoc}): under the admin token filter like the API itself.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    static final String BEARER = "bearer";

    @Bean
    OpenAPI adminApiDescription() {
        return new OpenAPI()
                .info(new Info()
                        .title("Tributary session-service admin API")
                        .version("v1")
                        .description("The admin REST API of session-service; session-service/API.md describes"
                                + " each endpoint. Every call needs a bearer token, except POST /api/v1/admin/tokens,"
                                + " which issues them."))
                // A relative server: the description is the same whatever host and port serve it.
                .servers(List.of(new Server().url("/")))
                .components(new Components()
                        .addSecuritySchemes(
                                BEARER,
                                new SecurityScheme()
                                        .type(SecurityScheme.Type.HTTP)
                                        .scheme("bearer")))
                .addSecurityItem(new SecurityRequirement().addList(BEARER));
    }

    @Bean
    AdminApiErrors adminApiErrors() {
        return new AdminApiErrors();
    }

    @Bean
    RecordNullability recordNullability() {
        return new RecordNullability();
    }
}
