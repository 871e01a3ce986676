package io.tributary.session.auth.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JwtKeysTest {

    @TempDir
    Path dir;

    private static JwtProperties properties(String secret, List<String> pems, String jwks) {
        return new JwtProperties(
                true,
                secret,
                pems,
                jwks,
                JwtProperties.ANY,
                JwtProperties.ANY,
                "sub",
                "client_id",
                "acl",
                Duration.ofSeconds(30));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.UTF_8))
                        .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    @Test
    void pem_public_keys_are_read_with_the_file_name_as_key_id() throws Exception {
        KeyPair rsa = JwtVerifierTest.rsa();
        KeyPair ec = JwtVerifierTest.ec();
        Path rsaFile = Files.writeString(
                dir.resolve("issuer-2026.pem"),
                pem("PUBLIC KEY", rsa.getPublic().getEncoded()));
        Path ecFile = Files.writeString(
                dir.resolve("devices.pub"),
                "comment lines around blocks are fine\n"
                        + pem("PUBLIC KEY", ec.getPublic().getEncoded()));

        JwtKeys keys = JwtKeys.load(properties(null, List.of(rsaFile.toString(), ecFile.toString()), null));

        assertThat(keys.hmacSecret()).isNull();
        assertThat(keys.publicKeys()).hasSize(2);
        assertThat(keys.publicKeys().get(0)).isInstanceOf(RSAKey.class);
        assertThat(keys.publicKeys().get(0).getKeyID()).isEqualTo("issuer-2026");
        assertThat(keys.publicKeys().get(1)).isInstanceOf(ECKey.class);
        assertThat(((ECKey) keys.publicKeys().get(1)).getCurve()).isEqualTo(Curve.P_256);
        assertThat(keys.publicKeys().get(1).getKeyID()).isEqualTo("devices");
    }

    @Test
    void a_jwks_file_gives_its_public_keys_and_drops_private_parts() throws Exception {
        KeyPair ec = JwtVerifierTest.ec();
        ECKey full = new ECKey.Builder(Curve.P_256, (ECPublicKey) ec.getPublic())
                .privateKey(ec.getPrivate())
                .keyID("k1")
                .build();
        Path file = Files.writeString(dir.resolve("jwks.json"), new JWKSet(full).toString(false));

        JwtKeys keys = JwtKeys.load(properties(null, List.of(), file.toString()));

        assertThat(keys.publicKeys()).hasSize(1);
        assertThat(keys.publicKeys().get(0).getKeyID()).isEqualTo("k1");
        assertThat(keys.publicKeys().get(0).isPrivate()).isFalse();
    }

    @Test
    void bad_configurations_fail_at_start_up_naming_the_setting() throws Exception {
        assertThatThrownBy(() -> JwtKeys.load(properties(null, List.of(), null)))
                .hasMessageContaining("no key is configured");
        assertThatThrownBy(() -> JwtKeys.load(properties("short", List.of(), null)))
                .hasMessageContaining("TRIBUTARY_JWT_HMAC_SECRET")
                .hasMessageContaining("32 bytes");
        assertThatThrownBy(() -> JwtKeys.load(
                        properties(null, List.of(dir.resolve("missing.pem").toString()), null)))
                .hasMessageContaining("TRIBUTARY_JWT_PUBLIC_KEYS");
        Path privateKey = Files.writeString(
                dir.resolve("oops.pem"),
                pem("PRIVATE KEY", JwtVerifierTest.rsa().getPrivate().getEncoded()));
        assertThatThrownBy(() -> JwtKeys.load(properties(null, List.of(privateKey.toString()), null)))
                .hasMessageContaining("not a public key");
        Path notJwks = Files.writeString(dir.resolve("jwks.json"), "{\"keys\": 3}");
        assertThatThrownBy(() -> JwtKeys.load(properties(null, List.of(), notJwks.toString())))
                .hasMessageContaining("TRIBUTARY_JWT_JWKS_FILE");
    }
}
