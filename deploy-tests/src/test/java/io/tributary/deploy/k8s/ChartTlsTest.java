package io.tributary.deploy.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * Issue 34: the chart is closed by default. MQTT over TLS only (no plain listener on the pods, the NLB, the headless
 * Service or the NetworkPolicy), with a certificate the chart generates when neither cert-manager nor the operator's
 * Secret gives one: a kubernetes.io/tls Secret whose server certificate is signed by a CA of its own (ca.crt, for
 * devices), kept by upgrades. The transport nodes read it as they would (PKCS#8 key, the certificate's own).
 */
class ChartTlsTest {

    private static final Path CHART = Repo.path(HelmChart.CHART_DIR);
    private static final List<String> SERVICE_NAMES = List.of(
            "transport-mqtt",
            "transport-mqtt.tributary",
            "transport-mqtt.tributary.svc",
            "transport-mqtt.tributary.svc.cluster.local",
            "transport-headless",
            "transport-headless.tributary",
            "transport-headless.tributary.svc",
            "transport-headless.tributary.svc.cluster.local",
            "*.transport-headless.tributary.svc",
            "*.transport-headless.tributary.svc.cluster.local");

    @TempDir
    Path temp;

    private static Map<String, Object> container(Manifests manifests) {
        return Manifests.containers(manifests.find("StatefulSet", "transport").orElseThrow())
                .get(0);
    }

    private static Map<String, String> env(Map<String, Object> container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Object node : Yamls.list(container.get("env"))) {
            env.put(Yamls.text(node, "name"), Yamls.text(node, "value"));
        }
        return env;
    }

    private static List<String> portNames(Object ports, String field) {
        return Yamls.list(ports).stream().map(p -> Yamls.text(p, field)).toList();
    }

    private static List<Integer> portNumbers(Object ports, String field) {
        return Yamls.list(ports).stream()
                .map(p -> ((Number) Yamls.at(p, field)).intValue())
                .toList();
    }

    private static List<Map<String, Object>> secrets(Manifests manifests) {
        return manifests.ofKind("Secret");
    }

    private static Map<String, String> data(Manifests manifests, String secret) {
        return Yamls.strings(Yamls.at(manifests.find("Secret", secret).orElseThrow(), "data"));
    }

    private static byte[] decoded(Map<String, String> data, String key) {
        assertThat(data).containsKey(key);
        return Base64.getDecoder().decode(data.get(key));
    }

    private static X509Certificate certificate(byte[] pem) throws Exception {
        assertThat(new String(pem, StandardCharsets.US_ASCII)).startsWith("-----BEGIN CERTIFICATE-----");
        return (X509Certificate)
                CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(pem));
    }

    /** As the transport's TlsContextLoader reads MQTT_TLS_KEY: unencrypted PKCS#8 only. */
    private static PrivateKey pkcs8Key(byte[] pem) throws Exception {
        Matcher m = Pattern.compile("-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----")
                .matcher(new String(pem, StandardCharsets.US_ASCII));
        assertThat(m.find())
                .as("tls.key is an unencrypted PKCS#8 key (BEGIN PRIVATE KEY)")
                .isTrue();
        return KeyFactory.getInstance("RSA")
                .generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(m.group(1))));
    }

    private static List<String> dnsNames(X509Certificate certificate) throws Exception {
        List<String> names = new ArrayList<>();
        for (List<?> name : certificate.getSubjectAlternativeNames()) {
            if (((Integer) name.get(0)) == 2) {
                names.add(String.valueOf(name.get(1)));
            }
        }
        return names;
    }

    /** The server certificate of the Secret, checked as the nodes and a device would: the key, the CA, the names. */
    private static X509Certificate checkedServerCertificate(Map<String, String> data, List<String> expectedNames)
            throws Exception {
        assertThat(data).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
        X509Certificate server = certificate(decoded(data, "tls.crt"));
        X509Certificate ca = certificate(decoded(data, "ca.crt"));
        assertThat(ca.getBasicConstraints()).as("ca.crt is a CA").isGreaterThanOrEqualTo(0);
        assertThat(server.getBasicConstraints()).as("tls.crt is no CA").isEqualTo(-1);
        server.verify(ca.getPublicKey());
        server.checkValidity();
        ca.checkValidity();
        assertThat(server.getIssuerX500Principal()).isEqualTo(ca.getSubjectX500Principal());
        assertThat(dnsNames(server)).containsExactlyInAnyOrderElementsOf(expectedNames);
        PrivateKey key = pkcs8Key(decoded(data, "tls.key"));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        byte[] challenge = "tributary".getBytes(StandardCharsets.US_ASCII);
        signer.update(challenge);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(server.getPublicKey());
        verifier.update(challenge);
        assertThat(verifier.verify(signature))
                .as("tls.key is the key of tls.crt")
                .isTrue();
        return server;
    }

    @Test
    void theDefaultInstallServesMqttOverTlsOnlyOnThePodsTheServicesAndThePolicy() {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of());
        Map<String, Object> container = container(manifests);
        assertThat(portNames(container.get("ports"), "name")).containsExactly("mqtt-tls", "management");
        assertThat(portNumbers(container.get("ports"), "containerPort")).containsExactly(8883, 8081);
        assertThat(env(container))
                .containsEntry("MQTT_PLAIN_ENABLED", "false")
                .containsEntry("MQTT_WS_PORT", "0")
                .containsEntry("MQTT_TLS_PORT", "8883")
                .containsEntry("MQTT_TLS_CERT", "/etc/tributary/tls/tls.crt")
                .containsEntry("MQTT_TLS_KEY", "/etc/tributary/tls/tls.key")
                // no listener the chart does not declare: MQTT over secure WebSocket stays closed
                .containsEntry("MQTT_WSS_PORT", "0");
        assertThat(Yamls.list(Manifests.podSpec(
                                manifests.find("StatefulSet", "transport").orElseThrow())
                        .get("volumes")))
                .anyMatch(v -> "tributary-tls".equals(Yamls.text(v, "secret.secretName")));
        Map<String, Object> nlb = manifests.find("Service", "transport-mqtt").orElseThrow();
        assertThat(portNames(Yamls.at(nlb, "spec.ports"), "targetPort")).containsExactly("mqtt-tls");
        assertThat(portNumbers(Yamls.at(nlb, "spec.ports"), "port")).containsExactly(8883);
        assertThat(portNames(
                        Yamls.at(manifests.find("Service", "transport-headless").orElseThrow(), "spec.ports"),
                        "targetPort"))
                .containsExactly("mqtt-tls");
        // The NLB's health checks go to the management port, which stays open: not to a closed MQTT port.
        assertThat(Yamls.strings(Yamls.at(nlb, "metadata.annotations")))
                .containsEntry("service.beta.kubernetes.io/aws-load-balancer-healthcheck-port", "8081");
        List<Object> rules =
                Yamls.listAt(manifests.find("NetworkPolicy", "transport").orElseThrow(), "spec.ingress");
        assertThat(portNames(Yamls.at(rules.get(0), "ports"), "port")).containsExactly("mqtt-tls", "management");
        assertThat(portNames(Yamls.at(rules.get(1), "ports"), "port")).containsExactly("mqtt-tls");
        for (Object rule : rules) {
            assertThat(portNames(Yamls.at(rule, "ports"), "port")).doesNotContain("mqtt", "mqtt-ws", "1883");
        }
        // Every check passes but the perf Jobs', which speak plain MQTT (perf runs need plainMqtt.enabled=true).
        assertThat(HelmChartTest.findings(manifests))
                .containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
        assertThat(HelmChartTest.findings(
                        HelmChart.deployment(CHART, null, Map.of("transport.plainMqtt.enabled", "true"))))
                .isEmpty();
    }

    @Test
    void theDefaultInstallGeneratesATlsSecretSignedByItsOwnCaForTheServiceNames() throws Exception {
        Manifests manifests = HelmChart.deployment(CHART, null, Map.of());
        assertThat(secrets(manifests).stream().map(Manifests::id))
                .containsExactlyInAnyOrder("Secret/tributary-tls", "Secret/tributary-tls-ca");
        Map<String, Object> secret = manifests.find("Secret", "tributary-tls").orElseThrow();
        assertThat(Yamls.text(secret, "type")).isEqualTo("kubernetes.io/tls");
        assertThat(KubeSchema.validate(secret)).isEmpty();
        Map<String, Object> broken = Yamls.map(new Yaml().load(new Yaml().dump(secret)));
        Yamls.mapAt(broken, "data").put("tls.crt", "not base64!");
        assertThat(KubeSchema.validate(broken)).containsExactly("v1/Secret tributary-tls: data.tls.crt is not base64");
        X509Certificate server = checkedServerCertificate(data(manifests, "tributary-tls"), SERVICE_NAMES);
        assertThat(server.getSubjectX500Principal().getName()).isEqualTo("CN=transport-mqtt");
        // The CA's Secret (mounted by no pod) holds the certificate devices are given and the key that signs.
        Map<String, String> ca = data(manifests, "tributary-tls-ca");
        assertThat(ca.get("tls.crt")).isEqualTo(data(manifests, "tributary-tls").get("ca.crt"));
        assertThat(Yamls.list(Manifests.podSpec(
                                manifests.find("StatefulSet", "transport").orElseThrow())
                        .get("volumes")))
                .noneMatch(v -> "tributary-tls-ca".equals(Yamls.text(v, "secret.secretName")));
        // Every rendering makes new keys: none is written in the chart (NoSecretInManifestsTest).
        assertThat(data(HelmChart.deployment(CHART, null, Map.of()), "tributary-tls")
                        .get("tls.key"))
                .isNotEqualTo(data(manifests, "tributary-tls").get("tls.key"));
    }

    @Test
    void theHostNamesOfTheValuesAreInTheGeneratedCertificate() throws Exception {
        Manifests manifests = HelmChart.deployment(
                CHART,
                null,
                Map.of("transport.tls.dnsNames[0]", "mqtt.example.com", "transport.tls.dnsNames[1]", "a.example.com"));
        List<String> names = new ArrayList<>(SERVICE_NAMES);
        names.addAll(List.of("mqtt.example.com", "a.example.com"));
        checkedServerCertificate(data(manifests, "tributary-tls"), names);
        assertThat(HelmChartTest.findings(manifests))
                .containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);
    }

    private Path cluster(Map<String, Object> objects) throws IOException {
        Path values = Files.createTempFile(temp, "cluster", ".yaml");
        Files.writeString(values, new Yaml().dump(Map.of(HelmChart.CLUSTER_VALUE, objects)));
        return values;
    }

    private static Map<String, Object> objects(Manifests manifests) {
        Map<String, Object> objects = new LinkedHashMap<>();
        secrets(manifests).forEach(s -> objects.put("Secret/" + Manifests.name(s), s));
        return objects;
    }

    /** What lookup finds on an upgrade (deploy-tests stand in for the cluster: HelmChart.CLUSTER_VALUE). */
    @Test
    void anUpgradeKeepsTheGeneratedSecretAndSignsNewNamesWithTheSameCa() throws Exception {
        Manifests first = new Manifests(HelmChart.render(CHART, null, Map.of()));
        Map<String, Object> installed = objects(first);
        Manifests upgrade = new Manifests(HelmChart.render(CHART, cluster(installed), Map.of()));
        assertThat(data(upgrade, "tributary-tls")).isEqualTo(data(first, "tributary-tls"));
        assertThat(data(upgrade, "tributary-tls-ca")).isEqualTo(data(first, "tributary-tls-ca"));

        // Once the NLB has its host name, an upgrade puts it in a new server certificate from the same CA.
        Map<String, Object> withNlb = new LinkedHashMap<>(installed);
        withNlb.put(
                "Service/transport-mqtt",
                Map.of("status", Map.of("loadBalancer", Map.of("ingress", List.of(Map.of("hostname", "x.elb.com"))))));
        Manifests named = new Manifests(HelmChart.render(CHART, cluster(withNlb), Map.of()));
        assertThat(data(named, "tributary-tls-ca")).isEqualTo(data(first, "tributary-tls-ca"));
        assertThat(data(named, "tributary-tls").get("ca.crt"))
                .isEqualTo(data(first, "tributary-tls").get("ca.crt"));
        assertThat(data(named, "tributary-tls").get("tls.crt"))
                .isNotEqualTo(data(first, "tributary-tls").get("tls.crt"));
        List<String> names = new ArrayList<>(SERVICE_NAMES);
        names.add("x.elb.com");
        X509Certificate server = checkedServerCertificate(data(named, "tributary-tls"), names);
        server.verify(
                certificate(decoded(data(first, "tributary-tls"), "ca.crt")).getPublicKey());

        // Near its end (renewBeforeDays), the server certificate is signed anew, again by the same CA.
        Map<String, Object> ending = new LinkedHashMap<>(installed);
        Map<String, Object> old = Yamls.map(new Yaml().load(new Yaml().dump(installed.get("Secret/tributary-tls"))));
        Yamls.mapAt(old, "metadata.annotations")
                .put("tributary.io/tls-not-after", String.valueOf(System.currentTimeMillis() / 1000 + 86400));
        ending.put("Secret/tributary-tls", old);
        Manifests renewed = new Manifests(HelmChart.render(CHART, cluster(ending), Map.of()));
        assertThat(data(renewed, "tributary-tls").get("tls.crt"))
                .isNotEqualTo(data(first, "tributary-tls").get("tls.crt"));
        assertThat(data(renewed, "tributary-tls").get("ca.crt"))
                .isEqualTo(data(first, "tributary-tls").get("ca.crt"));
        checkedServerCertificate(data(renewed, "tributary-tls"), SERVICE_NAMES);
    }

    /** An operator's Secret of that name is never overwritten by a generated one (install.sh adopts objects). */
    @Test
    void aSecretOfThatNameTheChartDidNotGenerateFailsTheUpgrade() throws Exception {
        Map<String, Object> own = new LinkedHashMap<>();
        own.put("metadata", Map.of("name", "tributary-tls"));
        own.put("type", "kubernetes.io/tls");
        own.put("data", Map.of("tls.crt", "b3du", "tls.key", "b3du"));
        Path cluster = cluster(Map.of("Secret/tributary-tls", own));
        assertThatThrownBy(() -> HelmChart.render(CHART, cluster, Map.of()))
                .hasMessageContaining("the Secret tributary-tls exists and was not generated by the chart: set"
                        + " transport.tls.generate=false");
        assertThat(HelmChart.render(CHART, cluster, Map.of("transport.tls.generate", "false")))
                .noneMatch(o -> "Secret".equals(Manifests.kind(o)));
    }

    @Test
    void theOperatorsOwnSecretOrCertManagerMeansNoGeneratedSecret() {
        Manifests own = HelmChart.deployment(
                CHART, null, Map.of("transport.tls.generate", "false", "transport.tls.secretName", "my-mqtt-cert"));
        assertThat(secrets(own)).isEmpty();
        assertThat(Yamls.list(
                        Manifests.podSpec(own.find("StatefulSet", "transport").orElseThrow())
                                .get("volumes")))
                .anyMatch(v -> "my-mqtt-cert".equals(Yamls.text(v, "secret.secretName")));
        assertThat(HelmChartTest.findings(own)).containsExactlyInAnyOrderElementsOf(HelmChart.PERF_WITHOUT_PLAIN_MQTT);

        Manifests certManager = HelmChart.deployment(
                CHART,
                null,
                Map.of(
                        "transport.tls.certManager.enabled",
                        "true",
                        "transport.tls.certManager.dnsNames[0]",
                        "mqtt.example.com"));
        assertThat(secrets(certManager)).isEmpty();
        assertThat(certManager.find("Certificate", "transport-tls")).isPresent();

        // TLS off (plain MQTT on): neither a Secret nor a Certificate.
        Manifests plain = HelmChart.plainDeployment(CHART, null, Map.of());
        assertThat(secrets(plain)).isEmpty();
        assertThat(plain.ofKind("Certificate")).isEmpty();
        assertThat(portNames(container(plain).get("ports"), "name")).containsExactly("mqtt", "mqtt-ws", "management");
    }

    @Test
    void noListenerLeftStillFailsTheRendering() {
        assertThatThrownBy(() -> HelmChart.render(CHART, null, Map.of("transport.tls.enabled", "false")))
                .hasMessageContaining("transport.plainMqtt.enabled=false needs another MQTT listener");
    }

    @Test
    void theNotesNameTheCertificateAndHowDevicesGetTheCa() {
        String generated = HelmChart.notes(CHART, Map.of());
        assertThat(generated)
                .contains("TLS certificate: generated by the chart")
                .contains("kubectl -n tributary get secret tributary-tls -o jsonpath='{.data.ca\\.crt}' | base64 -d")
                .contains("For production use cert-manager")
                .doesNotContain("WARNING");
        assertThat(HelmChart.notes(
                        CHART,
                        Map.of(
                                "transport.tls.certManager.enabled",
                                "true",
                                "transport.tls.certManager.dnsNames[0]",
                                "mqtt.example.com")))
                .contains("TLS certificate: issued by cert-manager (ClusterIssuer letsencrypt)")
                .doesNotContain("generated by the chart");
        assertThat(HelmChart.notes(
                        CHART, Map.of("transport.tls.generate", "false", "transport.tls.secretName", "my-mqtt-cert")))
                .contains("TLS certificate: your Secret my-mqtt-cert")
                .doesNotContain("generated by the chart");
        assertThat(HelmChart.notes(
                        CHART, Map.of("transport.tls.enabled", "false", "transport.plainMqtt.enabled", "true")))
                .contains("WARNING: MQTT is served in clear only (transport.tls.enabled=false)")
                .doesNotContain("TLS certificate");
        assertThat(HelmChart.notes(CHART, Map.of("transport.plainMqtt.enabled", "true")))
                .contains("WARNING: plain MQTT is on beside TLS");
        assertThat(HelmChart.notes(CHART, Map.of("transport.wsPort", "8083")))
                .contains("WARNING: MQTT over WebSocket on 8083 is in clear");
    }
}
