package io.tributary.perf.scenario;

/**
 * How TLS endpoints are trusted.
 *
 * @param trustAll accept any server certificate (self-signed benchmark targets); never for real deployments
 * @param caFile   PEM file with the CA certificates to trust; null = the JDK's default trust store
 */
public record TlsOptions(boolean trustAll, String caFile) {

    public static final TlsOptions DEFAULT = new TlsOptions(false, null);
}
