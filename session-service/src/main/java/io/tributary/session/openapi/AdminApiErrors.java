package io.tributary.session.openapi;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.tributary.session.web.ApiError;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springdoc.core.customizers.OpenApiCustomizer;

/**
 * What the controllers cannot tell springdoc: the errors every admin call may answer (the filter's 401, the error
 * advice's 400 / 500 / 503), all in {@link ApiError}'s shape, as are the 404s and 409s the controllers declare;
 * and that answers carry every field (null or not), so each property of a schema used in an answer is required.
 */
class AdminApiErrors implements OpenApiCustomizer {

    private static final String ERROR_SCHEMA = ApiError.class.getSimpleName();
    private static final String REF_PREFIX = "#/components/schemas/";

    @Override
    public void customise(OpenAPI api) {
        ModelConverters.getInstance(true).read(ApiError.class).forEach(api.getComponents()::addSchemas);
        api.getComponents().getSchemas().get(ERROR_SCHEMA).setRequired(List.of("error"));
        api.getPaths()
                .forEach((path, item) -> item.readOperations().forEach(operation -> {
                    ApiResponses responses = operation.getResponses();
                    if (mayBeMalformed(operation)) {
                        responses.putIfAbsent(
                                "400",
                                new ApiResponse()
                                        .description(
                                                "malformed JSON, a wrong parameter type, or a value the checks refuse"));
                    }
                    responses.putIfAbsent(
                            "401",
                            new ApiResponse()
                                    .description(
                                            "no valid bearer token (WWW-Authenticate: Bearer realm=\"tributary\")"));
                    responses.putIfAbsent("500", new ApiResponse().description("another database error"));
                    responses.putIfAbsent(
                            "503",
                            new ApiResponse()
                                    .description(
                                            "PostgreSQL or Kafka cannot be reached; nothing was committed, the call may be retried"));
                    responses.forEach((status, response) -> {
                        if (status.charAt(0) >= '4' && response.getContent() == null) {
                            response.setContent(new Content()
                                    .addMediaType(
                                            "application/json",
                                            new MediaType().schema(new Schema<>().$ref(REF_PREFIX + ERROR_SCHEMA))));
                        }
                    });
                }));
        requireAnswerFields(api);
    }

    /**
     * A body, a query parameter (range checks, types) or a path parameter that is not a string (a number) can be
     * refused with 400; a string path segment such as a client id cannot.
     */
    private static boolean mayBeMalformed(Operation operation) {
        return operation.getRequestBody() != null
                || (operation.getParameters() != null
                        && operation.getParameters().stream()
                                .anyMatch(p -> !"path".equals(p.getIn()) || !isString(p.getSchema())));
    }

    @SuppressWarnings("rawtypes")
    private static boolean isString(Schema schema) {
        return schema != null
                && ("string".equals(schema.getType())
                        || (schema.getTypes() != null && schema.getTypes().equals(Set.of("string"))));
    }

    /** Every property of a schema reachable from an answer is required: the API writes nulls, never omits. */
    @SuppressWarnings("rawtypes")
    private static void requireAnswerFields(OpenAPI api) {
        Map<String, Schema> schemas = api.getComponents().getSchemas();
        Deque<String> pending = new ArrayDeque<>();
        api.getPaths()
                .values()
                .forEach(item -> item.readOperations().stream()
                        .map(Operation::getResponses)
                        .flatMap(responses -> responses.values().stream())
                        .filter(response -> response.getContent() != null)
                        .flatMap(response -> response.getContent().values().stream())
                        .forEach(media -> collectRefs(media.getSchema(), pending)));
        Set<String> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            String name = pending.pop();
            Schema schema = schemas.get(name);
            if (!seen.add(name) || schema == null || schema.getProperties() == null) {
                continue;
            }
            schema.setRequired(
                    List.copyOf(new TreeSet<String>(schema.getProperties().keySet())));
            schema.getProperties().values().forEach(property -> collectRefs((Schema) property, pending));
        }
    }

    @SuppressWarnings("rawtypes")
    private static void collectRefs(Schema schema, Deque<String> into) {
        if (schema == null) {
            return;
        }
        if (schema.get$ref() != null) {
            into.push(schema.get$ref().substring(REF_PREFIX.length()));
        }
        collectRefs(schema.getItems(), into);
        if (schema.getOneOf() != null) {
            schema.getOneOf().forEach(s -> collectRefs((Schema) s, into));
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(s -> collectRefs((Schema) s, into));
        }
    }
}
