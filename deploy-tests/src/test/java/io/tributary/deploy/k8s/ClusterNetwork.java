package io.tributary.deploy.k8s;

import io.tributary.deploy.support.Repo;
import io.tributary.deploy.support.Yamls;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The addresses of the cluster that cluster/eksctl.yaml creates, as the NetworkPolicies and the PROXY protocol trust
 * depend on them (issue 34). eksctl splits the VPC's CIDR ({@code vpc.cidr}) into 8 subnets (a /19 each for a /16)
 * and gives zone {@code i} of {@code n} the public subnet {@code i} and the private subnet {@code n + i} (eksctl's
 * {@code pkg/vpc/vpc.go}, {@code SetSubnets}; its "VPC Configuration" page: three zones by default, two in
 * us-east-1, where the first two are then public and the third is private, so the three cover both layouts at the
 * price of admitting one private subnet there). The nodes, and with the
 * VPC CNI every pod, are in the private subnets (every node group has {@code privateNetworking: true}); an
 * internet-facing NLB's network interfaces are in the public ones (the subnets tagged {@code kubernetes.io/role/elb}).
 * So a NetworkPolicy {@code ipBlock} of the public subnets admits the NLB and no pod.
 */
record ClusterNetwork(Cidr vpc, List<Cidr> publicSubnets) {

    static final String EKSCTL = DeployContext.AWS_DIR + "/cluster/eksctl.yaml";
    private static final int ZONES = 3;

    static ClusterNetwork shipped() {
        return of(Yamls.load(Repo.read(EKSCTL)));
    }

    static ClusterNetwork of(Map<String, Object> eksctl) {
        String cidr = Yamls.text(eksctl, "vpc.cidr");
        Cidr vpc = Cidr.parse(cidr == null ? "192.168.0.0/16" : cidr);
        List<Cidr> subnets = vpc.split(8);
        return new ClusterNetwork(vpc, List.copyOf(subnets.subList(0, ZONES)));
    }

    /** What eksctl.yaml must say for {@link #publicSubnets()} to hold no node and no pod. */
    static List<String> check(Map<String, Object> eksctl) {
        List<String> findings = new ArrayList<>();
        if (Yamls.text(eksctl, "vpc.cidr") == null) {
            findings.add(EKSCTL + ": no vpc.cidr: the NetworkPolicies and TRIBUTARY_PROXY_PROTOCOL_TRUSTED name"
                    + " addresses of the VPC, which must be written where they come from");
        }
        if (Yamls.at(eksctl, "vpc.subnets") != null) {
            findings.add(EKSCTL + ": vpc.subnets given: the NLB's subnets are no longer eksctl's split of vpc.cidr");
        }
        for (String field : List.of("nodeGroups", "managedNodeGroups")) {
            for (Object group : Yamls.list(eksctl.get(field))) {
                if (!Boolean.TRUE.equals(Yamls.at(group, "privateNetworking"))) {
                    findings.add(EKSCTL + ": node group " + Yamls.text(group, "name") + " without privateNetworking:"
                            + " its nodes and pods would be in the public subnets, which the transport pods admit"
                            + " on their MQTT and management ports as the NLB's");
                }
            }
        }
        return findings;
    }

    /** An IPv4 network. */
    record Cidr(long address, int prefix) {

        static Cidr parse(String text) {
            String[] parts = text.trim().split("/");
            String[] octets = parts[0].split("\\.");
            if (octets.length != 4 || parts.length > 2) {
                throw new IllegalArgumentException("not an IPv4 CIDR: " + text);
            }
            long address = 0;
            for (String octet : octets) {
                int value = Integer.parseInt(octet);
                if (value < 0 || value > 255) {
                    throw new IllegalArgumentException("not an IPv4 CIDR: " + text);
                }
                address = (address << 8) | value;
            }
            int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : 32;
            if (prefix < 0 || prefix > 32) {
                throw new IllegalArgumentException("not an IPv4 CIDR: " + text);
            }
            return new Cidr(address & mask(prefix), prefix);
        }

        private static long mask(int prefix) {
            return prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
        }

        boolean contains(Cidr other) {
            return other.prefix >= prefix && (other.address & mask(prefix)) == address;
        }

        /** The network in {@code parts} (a power of two) equal subnets, in address order. */
        List<Cidr> split(int parts) {
            int bits = Integer.numberOfTrailingZeros(parts);
            List<Cidr> subnets = new ArrayList<>();
            for (long i = 0; i < parts; i++) {
                subnets.add(new Cidr(address + (i << (32 - prefix - bits)), prefix + bits));
            }
            return subnets;
        }

        @Override
        public String toString() {
            return (address >> 24) + "." + ((address >> 16) & 255) + "." + ((address >> 8) & 255) + "."
                    + (address & 255) + "/" + prefix;
        }
    }
}
