package io.tributary.perf.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TextTemplateTest {

    private static String render(String template, long n, long i, long k) {
        return TextTemplate.parse(template).render(new TextTemplate.Values(n, i, k, "grp", "run1"));
    }

    @Test
    void substitutesNamesAndEvaluatesExpressionsWithJavaPrecedence() {
        assertThat(render("{group}-{run}-{n}", 7, 0, 0)).isEqualTo("grp-run1-7");
        assertThat(render("t-{n*9+k}", 3, 0, 4)).isEqualTo("t-31");
        assertThat(render("{(n+1)*2}/{n/10}/{n%10}/{i - n}", 23, 30, 0)).isEqualTo("48/2/3/7");
        assertThat(render("{-1 + n}", 0, 0, 0)).isEqualTo("-1");
        assertThat(render("plain/topic", 1, 1, 1)).isEqualTo("plain/topic");
        assertThat(TextTemplate.parse("a/{n*9+k}/{i}").variables())
                .containsExactlyInAnyOrder(TextTemplate.Variable.N, TextTemplate.Variable.K, TextTemplate.Variable.I);
    }

    @Test
    void rejectsMalformedTemplatesWithTheReason() {
        assertThatThrownBy(() -> TextTemplate.parse("a/{n")).hasMessageContaining("is never closed");
        assertThatThrownBy(() -> TextTemplate.parse("a/n}")).hasMessageContaining("has no '{'");
        assertThatThrownBy(() -> TextTemplate.parse("{}")).hasMessageContaining("empty placeholder");
        assertThatThrownBy(() -> TextTemplate.parse("{x}")).hasMessageContaining("unknown placeholder 'x'");
        assertThatThrownBy(() -> TextTemplate.parse("{n %0}")).hasMessageContaining("division by zero");
        assertThatThrownBy(() -> TextTemplate.parse("{(n+1}")).hasMessageContaining("missing ')'");
        assertThatThrownBy(() -> TextTemplate.parse("{n n}")).hasMessageContaining("unexpected 'n'");
        assertThatThrownBy(() -> TextTemplate.parse("")).hasMessageContaining("is empty");
    }
}
