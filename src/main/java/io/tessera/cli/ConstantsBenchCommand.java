package io.tessera.cli;

import io.tessera.Tessera;
import io.tessera.bench.ConstantSharing;
import io.tessera.bench.Queries;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code tessera bench constants ssb|tpch --db DIR}: what queries that differ only in their constants save by
 * sharing compiled classes (see {@link ConstantSharing}).
 */
@Command(name = "constants", mixinStandardHelpOptions = true,
        description = "Prepare a suite's queries as written, with other constants (sharing the classes), and with "
                + "other constants after emptying the class cache: the compile time constants bound at run time save.")
public final class ConstantsBenchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "SUITE", description = "ssb or tpch")
    String suite;

    @Mixin
    DbOption db;

    @Override
    public Integer call() {
        try (Tessera t = Tessera.open(db.db)) {
            ConstantSharing.run(t.engine(), Queries.all(suite.toLowerCase(Locale.ROOT)), System.out);
        }
        return 0;
    }
}
