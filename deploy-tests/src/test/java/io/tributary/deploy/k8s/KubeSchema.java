package io.tributary.deploy.k8s;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.JSON;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates objects against the Kubernetes object schema, through the models the Kubernetes Java client
 * generates from Kubernetes' OpenAPI specification (client-java-api, Kubernetes 1.34): every field must exist in
 * the schema (a misspelt or misplaced key fails), required fields must be present, nested objects are checked the
 * same way, and the object must deserialize into the typed model (quantities, int-or-string ports).
 */
public final class KubeSchema {

    private static final Map<String, String> MODELS = Map.ofEntries(
            Map.entry("v1/Namespace", "V1Namespace"),
            Map.entry("v1/Service", "V1Service"),
            Map.entry("v1/ConfigMap", "V1ConfigMap"),
            Map.entry("v1/Secret", "V1Secret"),
            Map.entry("v1/ServiceAccount", "V1ServiceAccount"),
            Map.entry("v1/PersistentVolumeClaim", "V1PersistentVolumeClaim"),
            Map.entry("apps/v1/Deployment", "V1Deployment"),
            Map.entry("apps/v1/StatefulSet", "V1StatefulSet"),
            Map.entry("apps/v1/DaemonSet", "V1DaemonSet"),
            Map.entry("batch/v1/Job", "V1Job"),
            Map.entry("batch/v1/CronJob", "V1CronJob"),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", "V1NetworkPolicy"),
            Map.entry("policy/v1/PodDisruptionBudget", "V1PodDisruptionBudget"),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", "V2HorizontalPodAutoscaler"),
            Map.entry("storage.k8s.io/v1/StorageClass", "V1StorageClass"));

    /** The Kubernetes version of the models (client-java-api 25), which cluster/eksctl.yaml must run. */
    static final String KUBERNETES_VERSION = "1.34";

    private static final JSON JSON = new JSON();

    private KubeSchema() {}

    /** Findings for one object; none when it is valid. */
    public static List<String> validate(Map<String, Object> object) {
        List<String> findings = new ArrayList<>();
        String type = object.get("apiVersion") + "/" + object.get("kind");
        String name = type + " " + io.tributary.deploy.support.Yamls.text(object, "metadata.name");
        String model = MODELS.get(type);
        if (model == null) {
            findings.add(name + ": no schema known for " + type + " (add it to KubeSchema)");
            return findings;
        }
        JsonElement json = toJson(object);
        if ("v1/Secret".equals(type) && object.get("data") instanceof Map<?, ?> data) {
            // V1Secret binds data to byte[] through okio, which deploy-tests leave out with okhttp: the values are
            // checked here (base64, as the API server requires) and the rest of the object by the model.
            data.forEach((key, value) -> {
                try {
                    Base64.getDecoder().decode(String.valueOf(value));
                } catch (IllegalArgumentException e) {
                    findings.add(name + ": data." + key + " is not base64");
                }
            });
            Map<Object, Object> withoutData = new LinkedHashMap<>(object);
            withoutData.remove("data");
            json = toJson(withoutData);
        }
        try {
            Class<?> modelClass = Class.forName("io.kubernetes.client.openapi.models." + model);
            modelClass.getMethod("validateJsonElement", JsonElement.class).invoke(null, json);
            Object unused = JSON.getGson().fromJson(json, modelClass); // throws when the object does not bind
        } catch (InvocationTargetException e) {
            findings.add(name + ": " + e.getCause().getMessage());
        } catch (RuntimeException e) {
            findings.add(name + ": " + e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        return findings;
    }

    static JsonElement toJson(Object node) {
        if (node == null) {
            return JsonNull.INSTANCE;
        }
        if (node instanceof Map<?, ?> map) {
            JsonObject object = new JsonObject();
            map.forEach((key, value) -> object.add(String.valueOf(key), toJson(value)));
            return object;
        }
        if (node instanceof List<?> list) {
            JsonArray array = new JsonArray();
            list.forEach(item -> array.add(toJson(item)));
            return array;
        }
        if (node instanceof Number number) {
            return new JsonPrimitive(number);
        }
        if (node instanceof Boolean bool) {
            return new JsonPrimitive(bool);
        }
        return new JsonPrimitive(String.valueOf(node));
    }
}
