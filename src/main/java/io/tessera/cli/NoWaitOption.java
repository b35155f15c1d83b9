package io.tessera.cli;

import picocli.CommandLine.Option;

/** The {@code --no-wait} option of the commands that write a database. */
public final class NoWaitOption {
    @Option(names = "--no-wait",
            description = "fail at once when another process is writing the database, instead of waiting for it")
    public boolean noWait;

    /** Whether a write waits for another writer. */
    public boolean waits() {
        return !noWait;
    }
}
