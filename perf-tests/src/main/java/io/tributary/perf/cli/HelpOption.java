package io.tributary.perf.cli;

import picocli.CommandLine.Option;

/** {@code -h, --help} of every command: prints that command's usage and exits 0. */
final class HelpOption {

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "show this help")
    boolean help;
}
