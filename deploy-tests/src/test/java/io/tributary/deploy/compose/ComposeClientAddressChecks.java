package io.tributary.deploy.compose;

import io.tributary.deploy.compose.HaproxyConfig.Server;
import io.tributary.deploy.services.ServiceSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The transport nodes see their clients' addresses behind HAProxy (issue 34): every HAProxy server line to a
 * transport sends a PROXY protocol v2 header ({@code send-proxy-v2}), every transport expects it
 * (TRIBUTARY_PROXY_PROTOCOL=true) and applies a per-address connection rate (MQTT_MAX_CONNECTION_RATE_PER_IP above
 * 0). One side without the other breaks every connection or blinds the per-address limits and the block list.
 */
final class ComposeClientAddressChecks {

    private ComposeClientAddressChecks() {}

    static List<String> check(ComposeProject project, HaproxyConfig haproxy, Map<String, ServiceSettings> tributary) {
        List<String> findings = new ArrayList<>();
        tributary.forEach((name, settings) -> {
            if (!settings.reads("TRIBUTARY_PROXY_PROTOCOL")) {
                return;
            }
            Map<String, String> env = project.services().get(name).environment();
            if (!"true".equals(settings.effective(env, "TRIBUTARY_PROXY_PROTOCOL"))) {
                findings.add(name + ": behind HAProxy without TRIBUTARY_PROXY_PROTOCOL=true: it sees HAProxy's address"
                        + " for every client");
            }
            String rate = settings.effective(env, "MQTT_MAX_CONNECTION_RATE_PER_IP");
            if (!(Double.parseDouble(rate) > 0)) {
                findings.add(name + ": MQTT_MAX_CONNECTION_RATE_PER_IP is " + rate
                        + ": the per-address connection rate is off");
            }
        });
        for (String backend : haproxy.backends()) {
            for (Server server : haproxy.servers(backend)) {
                ServiceSettings settings = tributary.get(server.host());
                if (settings != null && settings.reads("TRIBUTARY_PROXY_PROTOCOL") && !server.sendProxyV2()) {
                    findings.add("haproxy.cfg backend " + backend + " server " + server.name()
                            + " does not send-proxy-v2: the transport expects a PROXY protocol header");
                }
            }
        }
        return findings;
    }
}
