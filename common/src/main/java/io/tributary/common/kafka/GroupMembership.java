package io.tributary.common.kafka;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;

/**
 * How a service's consumers join their consumer group — bound by every service that consumes in a group (under its
 * {@code ...kafka.group} prefix, from the same environment variables).
 *
 * <p>Both protocols rebalance incrementally: a member that joins or leaves moves only the partitions that change
 * owner, the others keep consuming. {@link Protocol#CONSUMER} is KIP-848's (the broker assigns; Kafka 4.0 and later
 * enable it by default), {@link Protocol#CLASSIC} is the cooperative-sticky assignor of the classic protocol, for
 * older brokers or clusters that disabled the new one.
 *
 * <p>With an instance id the member is static: when it stops, the broker keeps its partitions for it (they are not
 * consumed meanwhile) until the group's session timeout (the broker's {@code group.consumer.session.timeout.ms}, or
 * the client's {@code session.timeout.ms} with the classic protocol; 45 s by default). A restart within that time gets
 * the same partitions back without moving anything. The id must therefore survive restarts (a StatefulSet pod name, a
 * fixed name per host) and be unique in the group; a random pod name would make every replaced pod's partitions wait
 * for the session timeout.
 *
 * @param protocol {@code consumer} (KIP-848) or {@code classic} (cooperative-sticky)
 * @param instanceId the {@code group.instance.id} of this process, or empty for dynamic membership
 */
public record GroupMembership(
        @NotNull Protocol protocol,

        @Size(max = 200)
        @Pattern(regexp = "[A-Za-z0-9._-]*", message = "may contain only letters, digits, '.', '_' and '-'")
        String instanceId) {

    /** The group rebalance protocol. */
    public enum Protocol {
        /** KIP-848: server-side assignment, incremental, no group-wide synchronisation barrier. */
        CONSUMER,
        /** The classic protocol with the cooperative-sticky assignor (incremental, two rounds). */
        CLASSIC
    }

    public GroupMembership {
        if (protocol == null) {
            throw new IllegalArgumentException("group protocol is required");
        }
        instanceId = instanceId == null ? "" : instanceId.strip();
    }

    public boolean isStatic() {
        return !instanceId.isEmpty();
    }

    /** The group settings of a consumer of group {@code groupId}. */
    public Map<String, Object> consumerConfig(String groupId) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, protocol.name().toLowerCase(Locale.ROOT));
        if (protocol == Protocol.CLASSIC) {
            // With the consumer protocol the broker assigns and this setting is refused.
            config.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        }
        if (isStatic()) {
            config.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, instanceId);
        }
        return config;
    }

    /**
     * A client id that names the process: {@code prefix-role-instance}, where the instance is the instance id, or
     * the host name and process id without one. Distinct per process, so broker-side quotas, request logs and the
     * group's member list tell the instances apart.
     */
    public String clientId(String prefix, String role) {
        return prefix + "-" + role + "-" + instanceName();
    }

    /** What tells this process apart from the other instances of its service: the instance id, or the process name. */
    public String instanceName() {
        return isStatic() ? instanceId : processName();
    }

    /** Host name and process id: unique on a host, and pod names are unique in a cluster. */
    static String processName() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                host = "unknown-host";
            }
        }
        return host.replaceAll("[^A-Za-z0-9._-]", "_") + "-"
                + ManagementFactory.getRuntimeMXBean().getPid();
    }
}
