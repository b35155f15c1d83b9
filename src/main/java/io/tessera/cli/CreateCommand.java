package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.tessera.storage.TableSchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tessera create}: an empty table (and the database directory when there is none). */
@Command(name = "create", mixinStandardHelpOptions = true,
        description = "Create an empty table (and the database when there is none).")
public final class CreateCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Mixin
    NoWaitOption noWait;

    @Option(names = "--table", required = true, paramLabel = "T", description = "table name")
    String table;

    @Option(names = "--columns", required = true, paramLabel = "DEFS",
            description = "column list, e.g. \"a INTEGER NOT NULL, b VARCHAR, c DECIMAL(15,2), d DATE\"")
    String columns;

    @Override
    public void run() {
        TableSchema schema = TableSchema.parse(table, columns);
        try (Database d = Database.openOrCreate(db.db, noWait.waits())) {
            Table t = d.createTable(schema);
            spec.commandLine().getOut().println("created table " + t.name() + " (" + t.columns().size()
                    + " columns) in " + db.db);
            spec.commandLine().getOut().flush();
        }
    }
}
