package io.tributary.cli;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version in the jar's manifest (the Maven project version). */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = TributaryCli.class.getPackage().getImplementationVersion();
        return new String[] {"tributary " + (version == null ? "(version unknown: not run from its jar)" : version)};
    }
}
