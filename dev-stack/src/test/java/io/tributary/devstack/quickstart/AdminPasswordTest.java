package io.tributary.devstack.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quick start's first admin never gets a password that is known before the data directory exists (issue 34). */
class AdminPasswordTest {

    @TempDir
    Path dir;

    @Test
    void a_new_data_directory_gets_a_random_password_kept_for_its_owner_only() throws Exception {
        Path data = dir.resolve("data");
        AdminPassword first = AdminPassword.of(Map.of(), data);
        AdminPassword other = AdminPassword.of(Map.of(), dir.resolve("other"));

        assertThat(first.value()).matches("[0-9a-f]{32}").isNotEqualTo(AdminPassword.FORMER_FIXED);
        assertThat(other.value()).isNotEqualTo(first.value());
        assertThat(first.formerFixed()).isFalse();
        assertThat(first.file()).isEqualTo(data.resolve(AdminPassword.FILE).toAbsolutePath());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(first.file())))
                .isEqualTo("rw-------");
        assertThat(first.toString()).doesNotContain(first.value());
    }

    @Test
    void a_restart_on_the_same_data_directory_finds_the_same_password() {
        Path data = dir.resolve("data");
        String first = AdminPassword.of(Map.of(), data).value();
        assertThat(AdminPassword.of(Map.of(), data).value()).isEqualTo(first);
    }

    @Test
    void the_environment_decides_when_it_names_a_password_and_nothing_is_written() {
        Path data = dir.resolve("data");
        AdminPassword given = AdminPassword.of(Map.of("TRIBUTARY_ADMIN_PASSWORD", "s3cret-of-mine"), data);

        assertThat(given.value()).isEqualTo("s3cret-of-mine");
        assertThat(given.file()).isNull();
        assertThat(data.resolve(AdminPassword.FILE)).doesNotExist();
    }

    @Test
    void a_data_directory_an_earlier_version_started_keeps_its_admins_former_password_and_says_so() throws Exception {
        Path data = dir.resolve("data");
        Files.createDirectories(data.resolve("postgres"));

        AdminPassword upgraded = AdminPassword.of(Map.of(), data);

        assertThat(upgraded.value()).isEqualTo(AdminPassword.FORMER_FIXED);
        assertThat(upgraded.formerFixed()).isTrue();
        assertThat(AdminPassword.of(Map.of(), data).formerFixed()).isTrue();
    }
}
