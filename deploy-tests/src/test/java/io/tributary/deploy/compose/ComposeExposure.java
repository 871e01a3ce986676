package io.tributary.deploy.compose;

import io.tributary.deploy.compose.ComposeProject.ComposeService;
import io.tributary.deploy.compose.ComposeProject.Port;
import io.tributary.deploy.services.ServiceCatalog;
import io.tributary.deploy.support.InternalTokenRules;
import io.tributary.deploy.support.SecretNames;
import io.tributary.deploy.support.UrlPasswords;
import io.tributary.deploy.support.WebSocketOrigins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the compose stack exposes as shipped: no secret in a tracked file (docker-compose.yml, .env), secrets only
 * from the git-ignored env files {@link ComposeSecrets#SCRIPT} generates, host ports on the loopback interface
 * unless the operator sets another address, no port of Kafka, PostgreSQL or Redis on the host (none of them
 * authenticates its clients here), no management port (the unauthenticated actuator) nor session-service's internal
 * API port on the host, and MQTT over WebSocket only for the web pages listed. Every method returns
 * findings; none means closed by default.
 */
final class ComposeExposure {

    /** The data stores: none of them is for clients on the host (Kafka's HOST listener only through the override). */
    private static final Set<String> DATA_STORES = Set.of("apache/kafka", "redis", "postgres");

    private final ComposeProject project;
    private final List<String> findings = new ArrayList<>();

    private ComposeExposure(ComposeProject project) {
        this.project = project;
    }

    /** @param gitignore the repository's .gitignore */
    static List<String> check(ComposeProject project, String gitignore) {
        ComposeExposure checks = new ComposeExposure(project);
        checks.secretsInTrackedFiles();
        checks.envFilesAreGenerated(gitignore);
        checks.hostAddresses();
        checks.dataStorePorts();
        checks.privateServicePorts();
        checks.redisAuthentication();
        checks.webSocketOrigins();
        checks.findings.addAll(ComposeKafkaChecks.check(project));
        checks.internalTokens();
        return checks.findings;
    }

    /**
     * One internal token per calling role ({@link InternalTokenRules}): a variable's source is the generated env file
     * entry it comes from (only env files can give a secret here without a finding above).
     */
    private void internalTokens() {
        ServiceCatalog catalog = ServiceCatalog.load();
        List<InternalTokenRules.Holder> holders = new ArrayList<>();
        project.services().forEach((name, service) -> {
            if (service.image() == null) {
                return;
            }
            catalog.byImage(service.image())
                    .ifPresent(settings -> holders.add(new InternalTokenRules.Holder(
                            name,
                            settings.module(),
                            InternalTokenRules.resolve(
                                    service.environment(),
                                    variable -> service.environment().containsKey(variable)
                                                    && !service.explicitEnvironment()
                                                            .containsKey(variable)
                                            ? service.environment().get(variable)
                                            : null))));
        });
        findings.addAll(InternalTokenRules.check(holders));
    }

    /** MQTT over WebSocket only from the web pages listed (the admin console), never from any page. */
    private void webSocketOrigins() {
        project.services()
                .forEach((name, service) -> WebSocketOrigins.finding(
                                service.environment().get(WebSocketOrigins.VARIABLE))
                        .ifPresent(f -> findings.add(name + ": " + f)));
    }

    private void secretsInTrackedFiles() {
        project.dotEnv().forEach((variable, value) -> {
            if (SecretNames.holdsSecret(variable, value)) {
                findings.add(".env holds the secret " + variable + " (a tracked file: everybody with the repository"
                        + " knows it); generate it with " + ComposeSecrets.SCRIPT);
            }
        });
        project.dotEnv().forEach((variable, value) -> {
            if (UrlPasswords.hasLiteralPassword(value)) {
                findings.add(".env: " + variable + " carries a password in its URL (a tracked file)");
            }
        });
        project.services().forEach((name, service) -> {
            service.explicitEnvironment().forEach((variable, value) -> {
                if (SecretNames.holdsSecret(variable, value)) {
                    findings.add(name + ": the secret " + variable + " is set in docker-compose.yml (from the file or"
                            + " .env); read it from an env_file " + ComposeSecrets.SCRIPT + " generates");
                }
                if (UrlPasswords.hasLiteralPassword(value)) {
                    findings.add(name + ": " + variable + " carries a password in its URL in docker-compose.yml;"
                            + " name it (${...}) and read it from an env_file " + ComposeSecrets.SCRIPT + " generates");
                }
            });
        });
    }

    private void envFilesAreGenerated(String gitignore) {
        List<String> ignored = gitignore
                .lines()
                .map(String::trim)
                .filter(line -> line.endsWith("/") && !line.startsWith("#") && !line.startsWith("!"))
                .map(line -> line.startsWith("/") ? line.substring(1) : line)
                .toList();
        project.services().forEach((name, service) -> {
            for (String file : service.envFiles()) {
                String path = file.startsWith("./") ? file.substring(2) : file;
                if (ignored.stream().noneMatch(path::startsWith)) {
                    findings.add(name + ": env_file " + file + " is not git-ignored (.gitignore), so its secrets"
                            + " could be committed");
                }
            }
        });
    }

    private void hostAddresses() {
        project.services().forEach((name, service) -> {
            for (Port port : service.ports()) {
                if (!loopback(port.hostIp())) {
                    findings.add(name + ": host port " + port.published() + " is bound to "
                            + (port.hostIp().isEmpty() ? "every interface" : port.hostIp())
                            + " by default; bind it to 127.0.0.1 unless the operator sets an address");
                }
            }
        });
    }

    static boolean loopback(String hostIp) {
        return hostIp.startsWith("127.") || hostIp.equals("::1");
    }

    private void dataStorePorts() {
        for (Map.Entry<String, ComposeService> entry : project.services().entrySet()) {
            ComposeService service = entry.getValue();
            String repository = service.image() == null ? "" : ServiceCatalog.repositoryOf(service.image());
            if (DATA_STORES.contains(repository) && !service.ports().isEmpty()) {
                findings.add(entry.getKey() + ": publishes " + service.ports() + " on the host; " + repository
                        + " does not authenticate its clients here, so it must stay inside the compose network");
            }
        }
    }

    /**
     * The management port (health, metrics, loggers: not authenticated) and session-service's internal API port are
     * for the compose network only (issue 34, "One port for everything"); publishing one with any host address, even
     * 127.0.0.1, is reported: nothing on the host needs them.
     */
    private void privateServicePorts() {
        ServiceCatalog catalog = ServiceCatalog.load();
        project.services().forEach((name, service) -> {
            if (service.image() == null) {
                return;
            }
            catalog.byImage(service.image()).ifPresent(settings -> {
                Map<String, String> env = service.environment();
                for (Port port : service.ports()) {
                    if (port.target() == settings.managementPort(env)) {
                        findings.add(name + ": publishes its management port " + port.target() + " on the host (the"
                                + " actuator answers anybody); only the compose network may reach it");
                    } else if (settings.privatePorts(env).contains(port.target())) {
                        findings.add(name + ": publishes its internal API port " + port.target() + " on the host;"
                                + " only the transport and routing containers may reach it");
                    }
                }
            });
        });
    }

    /**
     * Redis answers only with its password (issue 34): it starts with {@code requirepass} from the generated
     * {@code REDIS_PASSWORD}, its healthcheck authenticates (a bare {@code redis-cli ping} exits 0 on NOAUTH too), and
     * every service's {@code REDIS_URL} names that password.
     */
    private void redisAuthentication() {
        project.services().forEach((name, service) -> {
            String repository = service.image() == null ? "" : ServiceCatalog.repositoryOf(service.image());
            if (repository.equals("redis")) {
                String command = String.join(" ", service.command());
                if (!command.contains("requirepass") || !command.contains("$REDIS_PASSWORD")) {
                    findings.add(name + ": Redis starts without requirepass \"$REDIS_PASSWORD\" (command " + command
                            + "): every container of the compose network could read and change presence and the"
                            + " session queues");
                }
                String health = String.join(" ", service.healthcheck());
                if (!health.contains("REDISCLI_AUTH") || !health.contains("PONG")) {
                    findings.add(name + ": the healthcheck " + health + " does not authenticate and expect PONG");
                }
                requireGeneratedRedisPassword(name, service);
            }
            String url = service.environment().get("REDIS_URL");
            if (url != null) {
                if (!UrlPasswords.passwordVariable(url).equals(Optional.of("REDIS_PASSWORD"))) {
                    findings.add(name + ": REDIS_URL " + url + " does not carry the password"
                            + " (redis://:${REDIS_PASSWORD}@...), so Redis refuses it");
                }
                requireGeneratedRedisPassword(name, service);
            }
        });
    }

    private void requireGeneratedRedisPassword(String name, ComposeService service) {
        // Only an env_file can give it without a finding above: the generated ones are the only files allowed.
        if (!service.environment().containsKey("REDIS_PASSWORD")
                || service.explicitEnvironment().containsKey("REDIS_PASSWORD")) {
            findings.add(
                    name + ": REDIS_PASSWORD does not come from an env_file " + ComposeSecrets.SCRIPT + " generates");
        }
    }
}
