package io.tessera.cli;

import io.tessera.cli.format.CsvFormatter;
import io.tessera.tune.TuningBench;
import io.tessera.tune.TuningResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Every measurement of every search in a tuning bench, one CSV line each: which query and strategy, its place in the
 * search, the variant (its knob values), its seconds, whether it was cut, and the search's cost and best time so far.
 * It is how one reads why a strategy chose what it chose.
 */
final class TuningTraceCsv {

    static final String HEADER = "query,strategy,step,variant,seconds,pruned,cost_seconds,best_seconds";

    private TuningTraceCsv() {
    }

    static void write(Path file, List<TuningBench.QueryRow> rows) {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (TuningBench.QueryRow q : rows) {
            List<TuningResult> searches = new ArrayList<>();
            searches.add(q.exhaustive());
            q.strategies().forEach(s -> searches.add(s.result()));
            for (TuningResult r : searches) {
                for (TuningResult.Evaluation e : r.trace()) {
                    CsvFormatter.field(b, q.query());
                    b.append(',');
                    CsvFormatter.field(b, r.strategy());
                    b.append(',').append(e.index()).append(',');
                    CsvFormatter.field(b, q.space().describe(e.assignment()));
                    b.append(String.format(Locale.ROOT, ",%.9f,%b,%.6f,%.9f%n", e.seconds(), e.pruned(),
                            e.costSoFar(), e.bestSoFar()));
                }
            }
        }
        try {
            Files.writeString(file, b);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file + ": " + e.getMessage(), e);
        }
    }
}
