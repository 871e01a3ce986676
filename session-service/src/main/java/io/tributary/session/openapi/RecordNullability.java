package io.tributary.session.openapi;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.media.JsonSchema;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Tells which fields may be null. A record component's JSON property is nullable exactly when the component is
 * annotated {@link Nullable}, and required otherwise (a request must carry it; {@link AdminApiErrors} also requires
 * the nullable fields of answers, which are written as null). Without this the description knows nothing of null,
 * and the console's types would claim a value where null comes.
 */
class RecordNullability implements ModelConverter {

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Schema resolve(AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
        if (!chain.hasNext()) {
            return null;
        }
        Schema resolved = chain.next().resolve(type, context, chain);
        Class<?> raw = Json.mapper().constructType(type.getType()).getRawClass();
        if (resolved == null || !raw.isRecord()) {
            return resolved;
        }
        Schema model = resolved.get$ref() == null
                ? resolved
                : context.getDefinedModels()
                        .get(resolved.get$ref().substring(resolved.get$ref().lastIndexOf('/') + 1));
        if (model == null || model.getProperties() == null) {
            return resolved;
        }
        Map<String, Schema> properties = model.getProperties();
        Set<String> required = new TreeSet<>();
        for (RecordComponent component : raw.getRecordComponents()) {
            Schema property = properties.get(component.getName());
            if (property == null) {
                continue;
            }
            if (component.getAnnotatedType().isAnnotationPresent(Nullable.class)) {
                properties.put(component.getName(), orNull(property));
            } else {
                required.add(component.getName());
            }
        }
        model.setRequired(required.isEmpty() ? null : List.copyOf(required));
        return resolved;
    }

    /** {@code property} or JSON null, in OpenAPI 3.1's words. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Schema orNull(Schema property) {
        if (property.get$ref() != null) {
            return new JsonSchema().oneOf(List.of(property, new JsonSchema().types(Set.of("null"))));
        }
        Set<String> types =
                new TreeSet<>(property.getTypes() != null ? property.getTypes() : Set.of(property.getType()));
        types.add("null");
        property.setTypes(types);
        return property;
    }
}
