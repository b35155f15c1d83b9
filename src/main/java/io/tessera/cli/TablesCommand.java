package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;

/** {@code tessera tables}: the tables of a database with row counts and sizes. */
@Command(name = "tables", mixinStandardHelpOptions = true,
        description = "List the tables of a database with their row counts and sizes.")
public final class TablesCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Override
    public void run() {
        try (Database d = Database.open(db.db)) {
            TextTable out = new TextTable(List.of("table", "columns", "rows", "size"), List.of(false, true, true, true));
            for (Table t : d.tables()) {
                out.add(List.of(t.name(), Integer.toString(t.columns().size()), Long.toString(t.rowCount()),
                        io.tessera.storage.ByteSizes.text(t.sizeBytes())));
            }
            out.print(spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
        }
    }

    /** "1 row", "0 rows", "2 rows". */
    static String rowCount(long rows) {
        return rows + (rows == 1 ? " row" : " rows");
    }
}
