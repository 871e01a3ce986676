package io.tributary.cli;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** {@code --page N --size N} of a list command; the server's defaults (0 and 50) when left out. */
final class PageOptions {

    @Option(names = "--page", paramLabel = "N", description = "Page number, from 0 (default 0).")
    @Nullable
    Integer page;

    @Option(names = "--size", paramLabel = "N", description = "Entries per page (default 50).")
    @Nullable
    Integer size;
}
