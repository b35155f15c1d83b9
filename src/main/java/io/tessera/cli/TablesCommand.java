package io.tessera.cli;

import io.tessera.storage.Database;
import io.tessera.storage.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.Locale;

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
                        humanBytes(t.sizeBytes())));
            }
            out.print(spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
        }
    }

    /** "1 row", "0 rows", "2 rows". */
    static String rowCount(long rows) {
        return rows + (rows == 1 ? " row" : " rows");
    }

    /** 1023 B, 1.5 KiB, 12.3 MiB, ... */
    static String humanBytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
