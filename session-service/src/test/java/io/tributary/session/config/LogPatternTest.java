package io.tributary.session.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * issue 34: raw client ids in log lines let a client forge lines. The console pattern of application.yml, as logback
 * runs it, keeps a message with a line break, a line separator or a terminal escape on one line.
 */
class LogPatternTest {

    @Test
    void aClientChosenStringCannotStartALineOfItsOwn() throws Exception {
        Map<String, Object> yml;
        try (InputStream in = getClass().getResourceAsStream("/application.yml")) {
            yml = new Yaml().load(in);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> pattern = (Map<String, Object>) ((Map<String, Object>) yml.get("logging")).get("pattern");
        String console = ((String) pattern.get("console")).replaceAll("\\$\\{[^}]*}", "node-t");
        LoggerContext context = new LoggerContext();
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.setPattern(console);
        layout.start();
        LoggingEvent event = new LoggingEvent(
                getClass().getName(),
                context.getLogger("io.tributary.session.adminauth.AdminTokenService"),
                Level.WARN,
                "Refusing CONNECT of client '{}': bad",
                null,
                new Object[] {"meter\r\n12:00:00.000 INFO  [main] forged\u2028line\u001b[2J"});

        String line = layout.doLayout(event);

        assertThat(line.strip()).doesNotContain("\n", "\r", "\u2028", "\u001b").contains("forged");
        assertThat(line).endsWith(System.lineSeparator());
    }
}
