package io.tributary.cli;

import io.tributary.cli.client.model.CredentialRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tributary credentials import FILE.csv}: one POST per row, the console's CSV. Every row is tried; the counts
 * go to stdout, the failed rows by line to stderr, exit 1 if any failed. An unreachable server or a rejected token
 * stops at once.
 */
@Command(
        name = "import",
        description = {
            "Adds the credentials of a CSV file, one per row.",
            "Header row: username,clientId,certificateCn,password,blocked,publish,subscribe,description (any of them,"
                    + " any order); ACLs separated by ' ' or ';'."
        })
final class CredentialsImport extends ApiCommand {

    static final Set<String> COLUMNS = Set.of(
            "username", "clientId", "certificateCn", "password", "blocked", "publish", "subscribe", "description");

    @Parameters(paramLabel = "FILE.csv", description = "The CSV file.")
    String file = "";

    @Override
    void execute() {
        Path path = Path.of(file);
        List<List<String>> rows = rows(path);
        List<String> header = rows.get(0).stream().map(String::trim).toList();
        for (String column : header) {
            if (!COLUMNS.contains(column)) {
                throw new CliException(
                        ExitCodes.USAGE,
                        path + ": unknown column '" + column + "' (known: " + new TreeSet<>(COLUMNS) + ")");
            }
        }
        int created = 0;
        List<String> failures = new ArrayList<>();
        for (int line = 2; line <= rows.size(); line++) {
            List<String> row = rows.get(line - 1);
            if (row.size() == 1 && row.get(0).isBlank()) {
                continue;
            }
            CredentialRequest request = request(header, row);
            try {
                AdminApi api = api();
                api.call(() -> api.credentials().createCredential(request));
                created++;
            } catch (CliException e) {
                if (e.exitCode() != ExitCodes.REFUSED) {
                    throw e;
                }
                failures.add("line " + line + ": " + e.getMessage());
            }
        }
        out().println("created\t" + created);
        out().println("failed\t" + failures.size());
        out().flush();
        failures.forEach(err()::println);
        if (!failures.isEmpty()) {
            throw new CliException(ExitCodes.REFUSED, null);
        }
    }

    private static List<List<String>> rows(Path path) {
        List<List<String>> rows;
        try {
            rows = Csv.parse(Files.readString(path, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new CliException(ExitCodes.USAGE, "cannot read " + path + ": " + e.getMessage());
        }
        if (rows.isEmpty()) {
            throw new CliException(ExitCodes.USAGE, path + " is empty: it needs a header row");
        }
        return rows;
    }

    /** A row as a request: the columns it has (blank ones as absent), ACLs split, {@code blocked} true or not. */
    static CredentialRequest request(List<String> header, List<String> row) {
        CredentialRequest request = new CredentialRequest();
        for (int c = 0; c < header.size() && c < row.size(); c++) {
            String value = row.get(c).trim();
            String text = value.isEmpty() ? null : value;
            switch (header.get(c)) {
                case "username" -> request.setUsername(text);
                case "clientId" -> request.setClientId(text);
                case "certificateCn" -> request.setCertificateCn(text);
                case "password" -> request.setPassword(text);
                case "description" -> request.setDescription(text);
                case "blocked" -> request.setBlocked(value.equalsIgnoreCase("true"));
                case "publish" -> request.setPublish(CredentialsCommand.acl(value));
                case "subscribe" -> request.setSubscribe(CredentialsCommand.acl(value));
                default -> throw new IllegalArgumentException("unknown column " + header.get(c));
            }
        }
        return request;
    }
}
