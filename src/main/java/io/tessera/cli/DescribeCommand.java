package io.tessera.cli;

import io.tessera.storage.Column;
import io.tessera.storage.ColumnStats;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;

/** {@code tessera describe}: the columns of a table with their statistics. */
@Command(name = "describe", mixinStandardHelpOptions = true,
        description = "List a table's columns: type, nullability, nulls, distinct values (~ marks an estimate), min, max,"
        + " histogram buckets and most common values.")
public final class DescribeCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Mixin
    DbOption db;

    @Parameters(index = "0", paramLabel = "T", description = "table")
    String table;

    @Override
    public void run() {
        try (Database d = Database.open(db.db)) {
            Table t = d.table(table);
            var out = spec.commandLine().getOut();
            out.println(t.name() + ": " + TablesCommand.rowCount(t.rowCount()) + ", "
                    + io.tessera.storage.ByteSizes.text(t.sizeBytes()));
            TextTable tt = new TextTable(List.of("column", "type", "null", "nulls", "distinct", "min", "max",
                    "buckets", "most common"), List.of(false, false, false, true, true, false, false, true, false));
            boolean estimates = false;
            boolean histograms = false;
            for (Column c : t.columns()) {
                ColumnStats s = c.stats();
                boolean exact = distinctIsExact(s, t.rowCount());
                estimates |= !exact;
                histograms |= s.hasHistogram();
                tt.add(List.of(c.name(), c.type().toString(), c.schema().nullable() ? "NULL" : "NOT NULL",
                        Long.toString(s.nullCount()), (exact ? "" : "~") + s.distinctEstimate(),
                        ColumnStats.format(c.type(), s.min()), ColumnStats.format(c.type(), s.max()),
                        s.hasHistogram() ? Integer.toString(s.histogram().buckets().size()) : "",
                        MostCommonText.of(c.type(), s.histogram(), t.rowCount())));
            }
            tt.print(out);
            if (estimates) {
                out.println("~ distinct: an estimate (of numbers and dates a HyperLogLog sketch, within a few percent;"
                        + " of strings the dictionary's size, which may keep strings that an update or delete removed);"
                        + " the other counts, min and max are exact");
            }
            if (histograms) {
                out.println("buckets: of the equi-depth histogram of the non-null values; most common: values more"
                        + " than twice as frequent as the average, with their share of the rows (~ from a sample)");
            }
            out.flush();
        }
    }

    /**
     * Whether the distinct count is exact: where no value repeats (checked exactly when the table was written) it is
     * the count of non-null values, and a column with no value has none; otherwise it was estimated.
     */
    static boolean distinctIsExact(ColumnStats s, long rows) {
        return s.unique() || s.nullCount() == rows;
    }
}
