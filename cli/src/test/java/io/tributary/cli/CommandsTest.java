package io.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each command against a real HTTP server: the request it sends, what it prints, its exit code. */
class CommandsTest {

    @TempDir
    Path home;

    private ApiServer server;

    @BeforeEach
    void start() throws Exception {
        server = new ApiServer();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Cli cli() {
        return new Cli(home).env("TRIBUTARY_URL", server.url()).env("TRIBUTARY_TOKEN", "tok");
    }

    @Test
    void sessions_list_sends_its_query_and_token_and_prints_the_items_in_the_servers_column_order() {
        server.answer(
                "GET /api/v1/sessions?page=1&size=2&connected=true",
                200,
                "{\"items\":[{\"clientId\":\"m-1\",\"connected\":true,\"epoch\":3}],\"page\":1,\"size\":2,\"total\":1}");
        Cli.Result list = cli().run("sessions", "list", "--connected", "true", "--page", "1", "--size", "2");
        assertThat(list.exit()).as(list.err()).isZero();
        assertThat(list.out()).isEqualTo("clientId\tconnected\tepoch\nm-1\ttrue\t3\n");
        assertThat(server.only().header("Authorization")).isEqualTo("Bearer tok");
    }

    @Test
    void json_before_or_after_the_command_prints_the_body_byte_for_byte() {
        String body = "{\"id\":7,\"clientId\":\"c-1\",\"username\":null,\"createdAt\":\"2026-01-02T03:04:00Z\"}";
        server.answer("GET /api/v1/auth/credentials/7", 200, body);
        assertThat(cli().run("--json", "credentials", "show", "7").out()).isEqualTo(body + "\n");
        assertThat(cli().run("credentials", "show", "7", "--json").out()).isEqualTo(body + "\n");
        assertThat(cli().run("credentials", "show", "7").out())
                .isEqualTo("id\t7\nclientId\tc-1\nusername\t\ncreatedAt\t2026-01-02T03:04:00Z\n");
    }

    @Test
    void url_option_anywhere_wins_over_the_environment() {
        server.answer("GET /api/v1/kafka/topics", 200, "[{\"name\":\"tributary.publish\",\"messages\":5}]");
        Cli wrongEnv = new Cli(home).env("TRIBUTARY_URL", "http://127.0.0.1:1").env("TRIBUTARY_TOKEN", "t");
        assertThat(wrongEnv.run("--url", server.url() + "/", "kafka", "topics").out())
                .isEqualTo("name\tmessages\ntributary.publish\t5\n");
        assertThat(wrongEnv.run("kafka", "topics", "--url=" + server.url()).exit())
                .isZero();
    }

    @Test
    void a_refusal_is_exit_1_with_method_path_status_and_message() {
        server.answer("GET /api/v1/sessions/a%20b", 404, "{\"error\":\"no session for a b\"}");
        Cli.Result show = cli().run("sessions", "show", "a b");
        assertThat(show.exit()).isEqualTo(1);
        assertThat(show.err())
                .isEqualTo("tributary: GET /api/v1/sessions/a%20b: 404 {\"error\":\"no session for a b\"}\n");
        assertThat(show.out()).isEmpty();

        server.answer("DELETE /api/v1/auth/credentials/4", 409, "{\"message\":\"in use\"}");
        assertThat(cli().run("credentials", "remove", "4").err())
                .isEqualTo("tributary: DELETE /api/v1/auth/credentials/4: 409 in use\n");
    }

    @Test
    void a_rejected_token_is_exit_4_with_a_hint_and_no_server_is_exit_3() throws Exception {
        server.answer("GET /api/v1/overview", 401, "{\"error\":\"invalid token\"}");
        Cli.Result rejected = cli().run("health");
        assertThat(rejected.exit()).isEqualTo(4);
        assertThat(rejected.err())
                .contains("GET /api/v1/overview: 401 {\"error\":\"invalid token\"}")
                .contains("tributary login, or TRIBUTARY_TOKEN");

        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Cli.Result unreachable = cli().run("--url", "http://127.0.0.1:" + closedPort, "health");
        assertThat(unreachable.exit()).isEqualTo(3);
        assertThat(unreachable.err()).startsWith("tributary: cannot reach http://127.0.0.1:" + closedPort);

        Cli.Result badUrl = cli().run("--url", "not-a-url", "health");
        assertThat(badUrl.exit()).isEqualTo(2);
        assertThat(badUrl.err()).contains("not-a-url");
    }

    @Test
    void removals_print_what_they_removed() {
        server.answer("DELETE /api/v1/sessions/m-1", 204, "");
        server.answer("DELETE /api/v1/retained?topic=a%2Fb%20c", 204, "");
        server.answer("DELETE /api/v1/auth/blocklist/9", 204, "");
        assertThat(cli().run("sessions", "remove", "m-1").out()).isEqualTo("removed\tm-1\n");
        assertThat(cli().run("retained", "delete", "a/b c").out()).isEqualTo("deleted\ta/b c\n");
        assertThat(cli().run("block", "remove", "9").out()).isEqualTo("removed\t9\n");
    }

    @Test
    void retained_list_takes_the_prefix_as_an_argument_or_an_option() {
        server.answer("GET /api/v1/retained?prefix=meters%2F", 200, "{\"items\":[{\"topic\":\"meters/1\"}]}");
        server.answer("GET /api/v1/retained?prefix=", 200, "{\"items\":[]}");
        assertThat(cli().run("retained", "list", "meters/").out()).isEqualTo("topic\nmeters/1\n");
        assertThat(cli().run("retained", "list", "--prefix", "meters/").out()).isEqualTo("topic\nmeters/1\n");
        assertThat(cli().run("retained", "list").out()).isEqualTo("\n");
    }

    @Test
    void credentials_add_sends_the_acls_split_on_spaces_and_semicolons() {
        server.answer("POST /api/v1/auth/credentials", 201, "{\"id\":5,\"publish\":[\"m/%u/#\"]}");
        Cli.Result add = cli().run(
                        "credentials",
                        "add",
                        "--username",
                        "u1",
                        "--password",
                        "pw",
                        "--publish",
                        "m/%u/#",
                        "--subscribe",
                        "a/# ;b/#",
                        "--description",
                        "d");
        assertThat(add.exit()).as(add.err()).isZero();
        assertThat(add.out()).isEqualTo("id\t5\npublish\tm/%u/#\n");
        assertThat(server.only().body())
                .contains("\"username\":\"u1\"", "\"password\":\"pw\"", "\"publish\":[\"m/%u/#\"]")
                .contains("\"subscribe\":[\"a/#\",\"b/#\"]", "\"description\":\"d\"")
                .doesNotContain("clientId", "null");
    }

    @Test
    void credentials_block_puts_the_credential_back_with_blocked_set() {
        server.answer(
                "GET /api/v1/auth/credentials/3",
                200,
                "{\"id\":3,\"username\":\"u\",\"clientId\":null,\"blocked\":false,\"publish\":[\"p/#\"],"
                        + "\"subscribe\":[],\"description\":\"kept\",\"certificateCn\":\"cn\",\"tenant\":\"t\"}");
        server.answer("PUT /api/v1/auth/credentials/3", 200, "{\"id\":3,\"blocked\":true}");
        Cli.Result block = cli().run("credentials", "block", "3");
        assertThat(block.exit()).as(block.err()).isZero();
        assertThat(block.out()).isEqualTo("id\t3\nblocked\ttrue\n");
        ApiServer.Request put = server.requests().get(1);
        assertThat(put.method()).isEqualTo("PUT");
        assertThat(put.body())
                .contains("\"blocked\":true", "\"username\":\"u\"", "\"publish\":[\"p/#\"]", "\"subscribe\":[]")
                .contains("\"description\":\"kept\"", "\"certificateCn\":\"cn\"")
                .doesNotContain("tenant", "password", "clientId");
    }

    @Test
    void credentials_import_tries_every_row_and_lists_the_failures_by_line() throws Exception {
        server.answer("POST /api/v1/auth/credentials", 201, "{\"id\":1}");
        Path csv = Files.writeString(
                home.resolve("c.csv"), "username,password,publish,blocked\nu1,p1,\"x/#;y/#\",TRUE\n\nu2,,,\n");
        Cli.Result imported = cli().run("credentials", "import", csv.toString());
        assertThat(imported.exit()).as(imported.err()).isZero();
        assertThat(imported.out()).isEqualTo("created\t2\nfailed\t0\n");
        assertThat(server.requests().get(0).body())
                .contains("\"username\":\"u1\"", "\"publish\":[\"x/#\",\"y/#\"]", "\"blocked\":true");
        assertThat(server.requests().get(1).body())
                .contains("\"username\":\"u2\"")
                .doesNotContain("password");

        server.answer("POST /api/v1/auth/credentials", 400, "{\"error\":\"a credential needs an identity\"}");
        Cli.Result failed = cli().run("credentials", "import", csv.toString());
        assertThat(failed.exit()).isEqualTo(1);
        assertThat(failed.out()).isEqualTo("created\t0\nfailed\t2\n");
        assertThat(failed.err())
                .isEqualTo(
                        "line 2: POST /api/v1/auth/credentials: 400 {\"error\":\"a credential needs an identity\"}\n"
                                + "line 4: POST /api/v1/auth/credentials: 400 {\"error\":\"a credential needs an identity\"}\n");

        Path unknown = Files.writeString(home.resolve("u.csv"), "username,colour\n");
        Cli.Result bad = cli().run("credentials", "import", unknown.toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("unknown column 'colour'");
        assertThat(cli().run(
                                "credentials",
                                "import",
                                home.resolve("missing.csv").toString())
                        .exit())
                .isEqualTo(2);
    }

    @Test
    void block_add_sends_the_entry() {
        server.answer(
                "POST /api/v1/auth/blocklist", 201, "{\"disconnected\":0,\"entry\":{\"id\":4,\"ip\":\"10.0.0.0/8\"}}");
        Cli.Result add = cli().run("block", "add", "--ip", "10.0.0.0/8", "--reason", "scan");
        assertThat(add.out()).isEqualTo("disconnected\t0\nentry.id\t4\nentry.ip\t10.0.0.0/8\n");
        assertThat(server.only().body()).isEqualTo("{\"ip\":\"10.0.0.0/8\",\"reason\":\"scan\"}");
    }

    @Test
    void health_lists_nodes_and_groups_and_exits_5_when_something_is_missing() {
        String healthy = "{\"transportNodes\":[{\"nodeId\":\"n1\",\"alive\":true,\"connections\":12},"
                + "{\"nodeId\":\"n0\",\"alive\":false,\"connections\":null}],"
                + "\"routing\":{\"groupId\":\"tributary-routing\",\"state\":\"Stable\",\"members\":[{}],\"lag\":0},"
                + "\"sessionService\":{\"groupId\":\"tributary-session\",\"state\":\"Stable\",\"members\":[{},{}],"
                + "\"lag\":3}}";
        server.answer("GET /api/v1/overview", 200, healthy);
        Cli.Result health = cli().run("health");
        assertThat(health.exit()).as(health.err()).isZero();
        assertThat(health.out())
                .isEqualTo("kind\tname\tstatus\tcount\tlag\ntransport\tn1\talive\t12\t\ntransport\tn0\tdead\t\t\n"
                        + "routing\ttributary-routing\tStable\t1\t0\n"
                        + "sessionService\ttributary-session\tStable\t2\t3\n");
        assertThat(cli().run("--json", "health").out()).isEqualTo(healthy + "\n");

        server.answer(
                "GET /api/v1/overview",
                200,
                "{\"transportNodes\":[],\"routing\":{\"groupId\":\"r\",\"state\":\"Empty\",\"members\":[],\"lag\":9}}");
        Cli.Result sick = cli().run("health");
        assertThat(sick.exit()).isEqualTo(5);
        assertThat(sick.out()).isEqualTo("kind\tname\tstatus\tcount\tlag\nrouting\tr\tEmpty\t0\t9\n");
        assertThat(sick.err()).isEqualTo("tributary: no transport node is alive; routing group r has no member\n");
    }

    @Test
    void login_saves_a_private_token_that_later_commands_send_and_logout_revokes_it() throws Exception {
        server.answer("POST /api/v1/admin/tokens", 201, "{\"token\":\"fresh\",\"expiresAt\":\"2026-01-01T00:00:00Z\"}");
        Cli signedOut = new Cli(home).env("TRIBUTARY_URL", server.url()).stdin("secret\n");
        Cli.Result login = signedOut.run("login", "--user", "ops", "--password-stdin");
        assertThat(login.exit()).as(login.err()).isZero();
        assertThat(login.out()).isEqualTo("signed in\tops\t" + server.url() + "\t2026-01-01T00:00:00Z\n");
        assertThat(server.only().body()).contains("\"username\":\"ops\"", "\"password\":\"secret\"");
        assertThat(server.only().header("Authorization")).isNull();
        Path token = home.resolve(".config/tributary/token");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(token)))
                .isEqualTo("rw-------");
        assertThat(Files.readString(token)).isEqualTo(server.url() + "\nfresh\n");

        server.answer("DELETE /api/v1/admin/tokens", 204, "");
        Cli saved = new Cli(home);
        Cli.Result logout = saved.run("logout");
        assertThat(logout.exit()).as(logout.err()).isZero();
        assertThat(logout.out()).isEqualTo("signed out\n");
        assertThat(server.requests().get(1).header("Authorization")).isEqualTo("Bearer fresh");
        assertThat(token).doesNotExist();
    }

    @Test
    void login_refused_is_exit_4_and_without_a_terminal_it_asks_for_password_stdin() {
        server.answer("POST /api/v1/admin/tokens", 401, "{\"error\":\"bad user name or password\"}");
        Cli.Result wrong =
                new Cli(home).env("TRIBUTARY_URL", server.url()).stdin("x").run("login", "--password-stdin");
        assertThat(wrong.exit()).isEqualTo(4);
        assertThat(wrong.err())
                .isEqualTo("tributary: POST /api/v1/admin/tokens: 401 {\"error\":\"bad user name or password\"}\n");
        assertThat(home.resolve(".config/tributary/token")).doesNotExist();

        Cli.Result noTerminal = new Cli(home).env("TRIBUTARY_URL", server.url()).run("login");
        assertThat(noTerminal.exit()).isEqualTo(2);
        assertThat(noTerminal.err()).contains("no terminal to ask the password: use --password-stdin");
    }

    @Test
    void without_a_token_nothing_is_sent_and_the_exit_is_4() {
        Cli.Result list = new Cli(home).env("TRIBUTARY_URL", server.url()).run("sessions", "list");
        assertThat(list.exit()).isEqualTo(4);
        assertThat(list.err()).isEqualTo("tributary: not signed in: run tributary login, or set TRIBUTARY_TOKEN\n");
        assertThat(server.requests()).isEmpty();
    }
}
