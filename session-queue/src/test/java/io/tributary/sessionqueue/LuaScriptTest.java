package io.tributary.sessionqueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class LuaScriptTest {

    @Test
    void the_digest_is_the_sha1_redis_names_the_script_by() {
        assertThat(LuaScript.digest("return 1".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("e0e1f9fabfc9d4800c877a703b823ac0578ff8db");
    }

    @Test
    void noscript_is_recognised_also_when_wrapped() {
        RuntimeException noScript = new RuntimeException("NOSCRIPT No matching script. Please use EVAL.");
        assertThat(LuaScript.isNoScript(noScript)).isTrue();
        assertThat(LuaScript.isNoScript(new CompletionException(noScript))).isTrue();
        assertThat(LuaScript.isNoScript(new RuntimeException("ERR wrong number of arguments")))
                .isFalse();
        assertThat(LuaScript.isNoScript(new RuntimeException((String) null))).isFalse();
    }
}
