// Tributary operator CLI: the session-service REST API from a shell. One file, compiled and run by bin/tributary
// (Java 17+, like bin/quickstart); no dependencies. `bin/tributary help` lists the commands.
//
// Server: --url or TRIBUTARY_URL (default http://127.0.0.1:8080). Token: TRIBUTARY_TOKEN, else the one `login`
// saved in ~/.config/tributary/token (mode 600). Output: tab-separated with a header row, or --json (the API's JSON).
// Exit codes: 0 ok, 1 the API refused (4xx/5xx, its message on stderr), 2 usage, 3 server unreachable,
// 4 not signed in or token rejected (401), 5 `health` found a dead transport node or an empty service group.

import java.io.Console;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

public final class TributaryCli {

    static final String USAGE = """
            usage: tributary [--url URL] [--json] COMMAND ...
              login [--user NAME] [--password-stdin]   get a token (password asked, or read from stdin), save it
              logout                                   revoke the saved token and forget it
              sessions list [--connected true|false] [--page N] [--size N]
              sessions show CLIENT_ID | disconnect CLIENT_ID | remove CLIENT_ID
              subscriptions CLIENT_ID                  the filters a session holds
              retained list [TOPIC_PREFIX] [--page N] [--size N]
              retained delete TOPIC
              credentials list [--page N] [--size N] | show ID | remove ID
              credentials add (--username U | --client-id C) [--password P] [--publish 'a/# b'] [--subscribe ...]
                              [--description D]
              credentials block ID | unblock ID
              credentials import FILE.csv              header row: username,clientId,certificateCn,password,
                                                       blocked,publish,subscribe,description (ACLs: ' ' or ';')
              block list | add (--client-id C | --username U | --ip ADDR[/BITS]) [--reason R] | remove ID
              kafka topics | groups | group GROUP_ID
              health                                   transport nodes and service groups (exit 5: no live
                                                       transport node, or a service group without members)
            environment: TRIBUTARY_URL, TRIBUTARY_TOKEN""";

    /** An error that ends the command with its exit code and one line on stderr. */
    static final class Exit extends RuntimeException {
        final int code;

        Exit(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> args;
    private final Map<String, String> options = new LinkedHashMap<>();
    private String url;
    private boolean json;

    TributaryCli(String[] argv) {
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < argv.length; i++) {
            String arg = argv[i];
            if (arg.equals("--json")) {
                json = true;
            } else if (arg.equals("--password-stdin")) {
                options.put("password-stdin", "true");
            } else if (arg.startsWith("--")) {
                if (i + 1 >= argv.length) {
                    throw new Exit(2, "missing value for " + arg);
                }
                options.put(arg.substring(2), argv[++i]);
            } else {
                positional.add(arg);
            }
        }
        args = positional;
        String fromEnv = System.getenv("TRIBUTARY_URL");
        url = stripSlash(options.getOrDefault("url", fromEnv == null || fromEnv.isBlank() ? savedUrl() : fromEnv));
    }

    public static void main(String[] argv) {
        try {
            new TributaryCli(argv).run();
        } catch (Exit e) {
            if (e.getMessage() != null) {
                System.err.println("tributary: " + e.getMessage());
            }
            System.exit(e.code);
        }
    }

    void run() {
        String command = arg(0, "a command (see: tributary help)");
        switch (command) {
            case "help", "-h" -> System.out.println(USAGE);
            case "login" -> login();
            case "logout" -> logout();
            case "sessions" -> sessions();
            case "subscriptions" -> print(get("/api/v1/sessions/" + path(arg(1, "a client id")) + "/subscriptions"));
            case "retained" -> retained();
            case "credentials" -> credentials();
            case "block" -> block();
            case "kafka" -> kafka();
            case "health" -> health();
            default -> throw new Exit(2, "unknown command '" + command + "'\n" + USAGE);
        }
    }

    private void sessions() {
        String sub = arg(1, "list, show, disconnect or remove");
        switch (sub) {
            case "list" -> print(get("/api/v1/sessions" + query("page", "size", "connected")));
            case "show" -> print(get("/api/v1/sessions/" + path(arg(2, "a client id"))));
            case "disconnect" -> print(call("POST", "/api/v1/sessions/" + path(arg(2, "a client id")) + "/disconnect",
                    null));
            case "remove" -> {
                call("DELETE", "/api/v1/sessions/" + path(arg(2, "a client id")), null);
                System.out.println("removed\t" + args.get(2));
            }
            default -> throw new Exit(2, "sessions: unknown subcommand '" + sub + "'");
        }
    }

    private void retained() {
        String sub = arg(1, "list or delete");
        switch (sub) {
            case "list" -> {
                options.putIfAbsent("prefix", args.size() > 2 ? args.get(2) : "");
                print(get("/api/v1/retained" + query("prefix", "page", "size")));
            }
            case "delete" -> {
                String topic = arg(2, "a topic");
                call("DELETE", "/api/v1/retained?topic=" + URLEncoder.encode(topic, StandardCharsets.UTF_8), null);
                System.out.println("deleted\t" + topic);
            }
            default -> throw new Exit(2, "retained: unknown subcommand '" + sub + "'");
        }
    }

    private void credentials() {
        String sub = arg(1, "list, show, add, block, unblock, remove or import");
        String base = "/api/v1/auth/credentials";
        switch (sub) {
            case "list" -> print(get(base + query("page", "size")));
            case "show" -> print(get(base + "/" + id(arg(2, "a credential id"))));
            case "add" -> {
                Map<String, Object> request = new LinkedHashMap<>();
                request.put("username", options.get("username"));
                request.put("clientId", options.get("client-id"));
                request.put("password", options.get("password"));
                request.put("publish", acl(options.get("publish")));
                request.put("subscribe", acl(options.get("subscribe")));
                request.put("description", options.get("description"));
                print(call("POST", base, Json.write(request)));
            }
            case "block", "unblock" -> {
                String id = id(arg(2, "a credential id"));
                @SuppressWarnings("unchecked")
                Map<String, Object> current = (Map<String, Object>) Json.parse(get(base + "/" + id));
                Map<String, Object> request = new LinkedHashMap<>();
                for (String field : List.of("username", "clientId", "publish", "subscribe", "description",
                        "certificateCn")) {
                    request.put(field, current.get(field));
                }
                request.put("blocked", sub.equals("block"));
                print(call("PUT", base + "/" + id, Json.write(request)));
            }
            case "remove" -> {
                String id = id(arg(2, "a credential id"));
                call("DELETE", base + "/" + id, null);
                System.out.println("removed\t" + id);
            }
            case "import" -> importCsv(Path.of(arg(2, "a CSV file")), base);
            default -> throw new Exit(2, "credentials: unknown subcommand '" + sub + "'");
        }
    }

    /** One POST per row; every row is tried, failures are listed by line, exit 1 if any failed. */
    private void importCsv(Path file, String base) {
        List<List<String>> rows;
        try {
            rows = Csv.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Exit(2, "cannot read " + file + ": " + e.getMessage());
        }
        if (rows.isEmpty()) {
            throw new Exit(2, file + " is empty: it needs a header row");
        }
        List<String> header = rows.get(0).stream().map(String::trim).toList();
        Set<String> known = Set.of("username", "clientId", "certificateCn", "password", "blocked", "publish",
                "subscribe", "description");
        for (String column : header) {
            if (!known.contains(column)) {
                throw new Exit(2, file + ": unknown column '" + column + "' (known: " + known + ")");
            }
        }
        int created = 0;
        List<String> failures = new ArrayList<>();
        for (int line = 2; line <= rows.size(); line++) {
            List<String> row = rows.get(line - 1);
            if (row.size() == 1 && row.get(0).isBlank()) {
                continue;
            }
            Map<String, Object> request = new LinkedHashMap<>();
            for (int c = 0; c < header.size() && c < row.size(); c++) {
                String value = row.get(c).trim();
                switch (header.get(c)) {
                    case "publish", "subscribe" -> request.put(header.get(c), acl(value));
                    case "blocked" -> request.put("blocked", value.equalsIgnoreCase("true"));
                    default -> request.put(header.get(c), value.isEmpty() ? null : value);
                }
            }
            try {
                call("POST", base, Json.write(request));
                created++;
            } catch (Exit e) {
                if (e.code != 1) {
                    throw e;
                }
                failures.add("line " + line + ": " + e.getMessage());
            }
        }
        System.out.println("created\t" + created);
        System.out.println("failed\t" + failures.size());
        failures.forEach(System.err::println);
        if (!failures.isEmpty()) {
            throw new Exit(1, null);
        }
    }

    private void block() {
        String sub = arg(1, "list, add or remove");
        String base = "/api/v1/auth/blocklist";
        switch (sub) {
            case "list" -> print(get(base + query("page", "size")));
            case "add" -> {
                Map<String, Object> request = new LinkedHashMap<>();
                request.put("clientId", options.get("client-id"));
                request.put("username", options.get("username"));
                request.put("ip", options.get("ip"));
                request.put("reason", options.get("reason"));
                print(call("POST", base, Json.write(request)));
            }
            case "remove" -> {
                String id = id(arg(2, "a block list entry id"));
                call("DELETE", base + "/" + id, null);
                System.out.println("removed\t" + id);
            }
            default -> throw new Exit(2, "block: unknown subcommand '" + sub + "'");
        }
    }

    private void kafka() {
        String sub = arg(1, "topics, groups or group");
        switch (sub) {
            case "topics" -> print(get("/api/v1/kafka/topics"));
            case "groups" -> print(get("/api/v1/kafka/groups"));
            case "group" -> print(get("/api/v1/kafka/groups/" + path(arg(2, "a group id"))));
            default -> throw new Exit(2, "kafka: unknown subcommand '" + sub + "'");
        }
    }

    /**
     * One line per transport node incarnation and per service group. Exit 5 when no transport node is alive or a
     * service group has no member; dead incarnations (a node restarted, or removed by a scale-down) are listed, as
     * history, without failing.
     */
    @SuppressWarnings("unchecked")
    private void health() {
        String body = get("/api/v1/overview");
        if (json) {
            System.out.println(body);
        }
        Map<String, Object> overview = (Map<String, Object>) Json.parse(body);
        List<String> problems = new ArrayList<>();
        StringBuilder out = new StringBuilder("kind\tname\tstatus\tcount\tlag\n");
        int alive = 0;
        for (Object o : (List<Object>) overview.getOrDefault("transportNodes", List.of())) {
            Map<String, Object> node = (Map<String, Object>) o;
            boolean up = Boolean.TRUE.equals(node.get("alive"));
            alive += up ? 1 : 0;
            out.append("transport\t").append(node.get("nodeId")).append('\t').append(up ? "alive" : "dead")
                    .append('\t').append(Json.scalar(node.get("connections"))).append("\t\n");
        }
        if (alive == 0) {
            problems.add("no transport node is alive");
        }
        for (Map.Entry<String, Object> entry : overview.entrySet()) {
            if (entry.getValue() instanceof Map<?, ?> group && group.containsKey("members")
                    && group.containsKey("groupId")) {
                int members = ((List<Object>) group.get("members")).size();
                out.append(entry.getKey()).append('\t').append(group.get("groupId")).append('\t')
                        .append(group.get("state")).append('\t').append(members).append('\t')
                        .append(Json.scalar(group.get("lag"))).append('\n');
                if (members == 0) {
                    problems.add(entry.getKey() + " group " + group.get("groupId") + " has no member");
                }
            }
        }
        if (!json) {
            System.out.print(out);
        }
        if (!problems.isEmpty()) {
            throw new Exit(5, String.join("; ", problems));
        }
    }

    private void login() {
        String user = options.getOrDefault("user", "admin");
        String password;
        if (options.containsKey("password-stdin")) {
            try {
                password = new String(System.in.readAllBytes(), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new Exit(2, "cannot read the password from stdin: " + e.getMessage());
            }
        } else {
            Console console = System.console();
            if (console == null) {
                throw new Exit(2, "no terminal to ask the password: use --password-stdin");
            }
            password = new String(console.readPassword("password for %s at %s: ", user, url));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> answer = (Map<String, Object>) Json.parse(call("POST", "/api/v1/admin/tokens",
                Json.write(Map.of("username", user, "password", password)), false));
        Object token = answer.get("token");
        if (!(token instanceof String)) {
            throw new Exit(1, "the server answered without a token");
        }
        Path file = tokenFile();
        try {
            Files.createDirectories(file.getParent());
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, url + "\n" + token + "\n");
        } catch (IOException e) {
            throw new Exit(1, "cannot save the token in " + file + ": " + e.getMessage());
        }
        System.out.println("signed in\t" + user + "\t" + url + "\t" + answer.getOrDefault("expiresAt", ""));
    }

    private void logout() {
        if (savedToken() != null) {
            try {
                call("DELETE", "/api/v1/admin/tokens", null);
            } catch (Exit e) {
                // a token the server no longer knows is forgotten all the same
            }
        }
        try {
            Files.deleteIfExists(tokenFile());
        } catch (IOException e) {
            throw new Exit(1, "cannot remove " + tokenFile() + ": " + e.getMessage());
        }
        System.out.println("signed out");
    }

    // --- HTTP ---

    private String get(String pathAndQuery) {
        return call("GET", pathAndQuery, null);
    }

    private String call(String method, String pathAndQuery, String body) {
        return call(method, pathAndQuery, body, true);
    }

    private String call(String method, String pathAndQuery, String body, boolean authenticated) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (authenticated) {
            String token = token();
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException e) {
            throw new Exit(3, "cannot reach " + url + " (connection refused): is session-service running there?"
                    + " (--url or TRIBUTARY_URL)");
        } catch (IOException e) {
            throw new Exit(3, "cannot reach " + url + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Exit(3, "interrupted");
        }
        int status = response.statusCode();
        if (status == 401) {
            throw new Exit(4, method + " " + pathAndQuery + ": 401 " + message(response.body())
                    + (authenticated ? " (token missing, expired or revoked: tributary login, or TRIBUTARY_TOKEN)"
                            : ""));
        }
        if (status >= 400) {
            throw new Exit(1, method + " " + pathAndQuery + ": " + status + " " + message(response.body()));
        }
        return response.body();
    }

    private String token() {
        String fromEnv = System.getenv("TRIBUTARY_TOKEN");
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.trim();
        }
        String saved = savedToken();
        if (saved == null) {
            throw new Exit(4, "not signed in: run tributary login, or set TRIBUTARY_TOKEN");
        }
        return saved;
    }

    /** The API's error body is {"error": ..., "message": ...}; anything else is shown as it came. */
    private static String message(String body) {
        try {
            if (Json.parse(body) instanceof Map<?, ?> map && map.get("message") != null) {
                return String.valueOf(map.get("message"));
            }
        } catch (RuntimeException e) {
            // not JSON
        }
        return body == null || body.isBlank() ? "(no message)" : body.strip();
    }

    // --- output ---

    /** --json: the body as it came. Else TSV: a page's items, a list, or one object as key/value lines. */
    @SuppressWarnings("unchecked")
    private void print(String body) {
        if (json || body == null || body.isBlank()) {
            System.out.println(body == null ? "" : body);
            return;
        }
        Object value = Json.parse(body);
        if (value instanceof Map<?, ?> map && map.get("items") instanceof List<?> items) {
            value = items;
        }
        if (value instanceof List<?> list) {
            Set<String> columns = new LinkedHashSet<>();
            for (Object row : list) {
                if (row instanceof Map<?, ?> m) {
                    m.keySet().forEach(k -> columns.add((String) k));
                }
            }
            StringBuilder out = new StringBuilder(String.join("\t", columns)).append('\n');
            for (Object row : list) {
                Map<String, Object> m = row instanceof Map<?, ?> ? (Map<String, Object>) row : Map.of("value", row);
                List<String> cells = new ArrayList<>();
                for (String column : columns) {
                    cells.add(Json.scalar(m.get(column)));
                }
                out.append(String.join("\t", cells)).append('\n');
            }
            System.out.print(out);
        } else if (value instanceof Map<?, ?> map) {
            printFields("", map);
        } else {
            System.out.println(Json.scalar(value));
        }
    }

    /** One object as key/value lines; nested objects as {@code outer.inner} keys. */
    private static void printFields(String prefix, Map<?, ?> map) {
        map.forEach((k, v) -> {
            if (v instanceof Map<?, ?> inner) {
                printFields(prefix + k + ".", inner);
            } else {
                System.out.println(prefix + k + "\t" + Json.scalar(v));
            }
        });
    }

    // --- arguments ---

    private String arg(int index, String what) {
        if (args.size() <= index) {
            throw new Exit(2, "missing " + what + "\n" + USAGE);
        }
        return args.get(index);
    }

    private String query(String... names) {
        StringBuilder query = new StringBuilder();
        for (String name : names) {
            String value = options.get(name);
            if (value != null) {
                query.append(query.length() == 0 ? '?' : '&').append(name).append('=')
                        .append(URLEncoder.encode(value, StandardCharsets.UTF_8));
            }
        }
        return query.toString();
    }

    private static String id(String value) {
        if (!value.matches("[0-9]{1,18}")) {
            throw new Exit(2, "'" + value + "' is not an id (a number; see the list command)");
        }
        return value;
    }

    private static String path(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<String> acl(String value) {
        if (value == null || value.isBlank()) {
            return List.of();
        }
        return Arrays.stream(value.trim().split("[\\s;]+")).toList();
    }

    private static String stripSlash(String value) {
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }

    private static Path tokenFile() {
        String config = System.getenv("XDG_CONFIG_HOME");
        Path base = config == null || config.isBlank() ? Path.of(System.getProperty("user.home"), ".config")
                : Path.of(config);
        return base.resolve("tributary").resolve("token");
    }

    private static List<String> savedLines() {
        try {
            return Files.readAllLines(tokenFile(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }

    private static String savedUrl() {
        List<String> lines = savedLines();
        return lines.size() >= 2 ? lines.get(0).trim() : "http://127.0.0.1:8080";
    }

    private static String savedToken() {
        List<String> lines = savedLines();
        return lines.size() >= 2 ? lines.get(1).trim() : null;
    }
}

/** Just enough JSON for the API's answers and requests: objects, arrays, strings, numbers, booleans, null. */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json json = new Json(text);
        Object value = json.value();
        json.space();
        if (json.pos != text.length()) {
            throw new IllegalArgumentException("trailing characters at " + json.pos);
        }
        return value;
    }

    /** A cell of TSV output: scalars as they are, arrays of scalars joined by spaces, the rest as JSON. */
    static String scalar(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof List<?> list && list.stream().noneMatch(v -> v instanceof Map || v instanceof List)) {
            return String.join(" ", list.stream().map(Json::scalar).toList());
        }
        if (value instanceof Map || value instanceof List) {
            return write(value);
        }
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue());
        }
        return value.toString().replace('\t', ' ').replace('\n', ' ');
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            out.append('"');
            for (char c : s.toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() == null) {
                    continue;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            out.append(scalar(value));
        }
    }

    private Object value() {
        space();
        if (pos >= text.length()) {
            throw new IllegalArgumentException("unexpected end of JSON");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{' -> {
                pos++;
                Map<String, Object> map = new LinkedHashMap<>();
                space();
                if (peek('}')) {
                    return map;
                }
                do {
                    space();
                    String key = string();
                    space();
                    expect(':');
                    map.put(key, value());
                    space();
                } while (peek(','));
                expect('}');
                return map;
            }
            case '[' -> {
                pos++;
                List<Object> list = new ArrayList<>();
                space();
                if (peek(']')) {
                    return list;
                }
                do {
                    list.add(value());
                    space();
                } while (peek(','));
                expect(']');
                return list;
            }
            case '"' -> {
                return string();
            }
            default -> {
                int start = pos;
                while (pos < text.length() && "{}[],: \t\r\n".indexOf(text.charAt(pos)) < 0) {
                    pos++;
                }
                String word = text.substring(start, pos);
                return switch (word) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    case "null" -> null;
                    default -> word.matches("-?[0-9]+") && word.length() < 19 ? (Object) Long.parseLong(word)
                            : (Object) Double.parseDouble(word);
                };
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = text.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> out.append(e);
            }
        }
    }

    private boolean peek(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw new IllegalArgumentException("expected '" + c + "' at " + pos);
        }
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }
}

/** RFC 4180 rows: fields may be quoted with "", a quote inside doubled; CRLF or LF line ends. */
final class Csv {
    private Csv() {
    }

    static List<List<String>> parse(String text) {
        List<List<String>> rows = new ArrayList<>();
        List<String> row = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                row.add(field.toString());
                field.setLength(0);
            } else if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
                    i++;
                }
                row.add(field.toString());
                field.setLength(0);
                rows.add(row);
                row = new ArrayList<>();
            } else {
                field.append(c);
            }
        }
        if (field.length() > 0 || !row.isEmpty()) {
            row.add(field.toString());
            rows.add(row);
        }
        return rows;
    }
}
