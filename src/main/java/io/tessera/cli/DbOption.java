package io.tessera.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The {@code --db DIR} option shared by every command that works on a database directory. */
public final class DbOption {
    @Option(names = "--db", required = true, paramLabel = "DIR", description = "database directory")
    public Path db;
}
