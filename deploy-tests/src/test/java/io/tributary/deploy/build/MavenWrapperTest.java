package io.tributary.deploy.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.deploy.support.Repo;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * README's two commands start with {@code ./mvnw}, which downloads Maven on a fresh machine and runs it: the
 * distribution it takes must be the one the project reviewed, not whatever the download returns (issue 34, "Maven
 * wrapper without a checksum"). The wrapper script refuses a distribution whose SHA-256 differs from
 * {@code distributionSha256Sum}; this checks that the pin is there and belongs to the distribution named. Whether
 * the value is right was checked when it was set, against the repository's published SHA-512 and SHA-1 of the zip,
 * and by the wrapper itself downloading into an empty {@code MAVEN_USER_HOME} (a wrong value is refused).
 */
class MavenWrapperTest {

    private static Properties wrapper() throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(Repo.path(".mvn/wrapper/maven-wrapper.properties"))) {
            p.load(in);
        }
        return p;
    }

    @Test
    void the_wrapper_pins_the_sha256_of_the_maven_distribution_it_downloads() throws IOException {
        Properties p = wrapper();
        assertThat(p.getProperty("distributionUrl"))
                .as("a Maven binary distribution of a fixed version")
                .matches("https://\\S+/org/apache/maven/apache-maven/(\\d+\\.\\d+\\.\\d+)/apache-maven-\\1-bin\\.zip");
        assertThat(p.getProperty("distributionSha256Sum"))
                .as("distributionSha256Sum: the wrapper refuses a download with another checksum")
                .matches("[0-9a-f]{64}");
        assertThat(p.getProperty("distributionType"))
                .as("no wrapper jar to pin as well (only-script)")
                .isEqualTo("only-script");
    }
}
