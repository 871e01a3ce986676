package io.tributary.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The shipped compose file and the edits the compose tests make to it to show that a check catches a change. */
final class ComposeEdits {

    private ComposeEdits() {}

    static String compose() {
        return Repo.read("docker-compose.yml");
    }

    /** {@code text} with the first {@code from} replaced; fails when {@code from} is no longer in it. */
    static String replace(String text, String from, String to) {
        assertThat(text)
                .as("the file still contains the text this test changes")
                .contains(from);
        return text.replaceFirst(Pattern.quote(from), Matcher.quoteReplacement(to));
    }

    /** What {@link ComposeExposure} reports for {@code compose} with the shipped {@code .env} and {@code .gitignore}. */
    static List<String> findings(String compose) {
        return ComposeExposure.check(ComposeProject.parse(compose, Repo.read(".env")), Repo.read(".gitignore"));
    }
}
