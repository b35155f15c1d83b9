package io.tessera.difftest;

import io.tessera.api.QueryResult;
import io.tessera.Tessera;
import io.tessera.bench.DuckDbPeer;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the same SQL on the same data in an engine under test (Tessera) and in a reference (DuckDB) and compares
 * the results with a {@link ResultComparator}. A failure names the SQL, the seed that generated it (if any), and
 * the first differing rows of both sides.
 */
public final class DifferentialHarness {

    /** Something that answers SQL with rows of Tessera's Java value kinds. */
    public interface Engine {
        String name();

        QueryResult query(String sql);
    }

    public static Engine tessera(Tessera t) {
        return new Engine() {
            public String name() {
                return "Tessera";
            }

            public QueryResult query(String sql) {
                return t.query(sql);
            }
        };
    }

    /** Tessera running every query with the genomes {@code genomes} chooses from its plan (explicit variants). */
    public static Engine tessera(Tessera t, String name,
                                 java.util.function.Function<io.tessera.plan.QueryPlan, java.util.Map<Integer, io.tessera.variant.Genome>> genomes) {
        return new Engine() {
            public String name() {
                return name;
            }

            public QueryResult query(String sql) {
                io.tessera.exec.QueryEngine e = t.engine();
                return e.run(e.prepareJvm(sql, genomes));
            }
        };
    }

    public static Engine duckdb(DuckDbPeer peer) {
        return new Engine() {
            public String name() {
                return "DuckDB";
            }

            public QueryResult query(String sql) {
                return peer.query(sql);
            }
        };
    }

    /** One query whose answers differ, or that one side could not run. */
    public record Failure(String sql, Long seed, String description) {
        public String message() {
            return "SQL: " + sql + "\n" + (seed != null ? "seed: " + seed + "\n" : "") + description;
        }
    }

    private final Engine reference;
    private final Engine underTest;
    private final ResultComparator comparator;

    public DifferentialHarness(Engine reference, Engine underTest) {
        this(reference, underTest, new ResultComparator());
    }

    public DifferentialHarness(Engine reference, Engine underTest, ResultComparator comparator) {
        this.reference = reference;
        this.underTest = underTest;
        this.comparator = comparator;
    }

    /** Null when both sides agree; otherwise what differs. */
    public Failure run(String sql, Long seed) {
        QueryResult expected;
        try {
            expected = reference.query(sql);
        } catch (RuntimeException e) {
            return new Failure(sql, seed, reference.name() + " (the reference) failed: " + stackHead(e));
        }
        QueryResult actual;
        try {
            actual = underTest.query(sql);
        } catch (RuntimeException | AssertionError e) {
            return new Failure(sql, seed, underTest.name() + " failed: " + stackHead(e));
        }
        String diff = comparator.compare(sql, expected, actual);
        return diff == null ? null : new Failure(sql, seed, underTest.name() + " differs from "
                + reference.name() + " (" + expected.rowCount() + " expected rows, " + actual.rowCount()
                + " actual): " + diff);
    }

    /** Throws an AssertionError describing the difference, if any. */
    public void check(String sql) {
        check(sql, null);
    }

    public void check(String sql, Long seed) {
        Failure f = run(sql, seed);
        if (f != null) {
            throw new AssertionError(f.message());
        }
    }

    /** Runs every query and fails once at the end, listing how many failed and the first few in full. */
    public void checkAll(List<String> sqls, List<Long> seeds) {
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < sqls.size(); i++) {
            Failure f = run(sqls.get(i), seeds == null ? null : seeds.get(i));
            if (f != null) {
                failures.add(f);
            }
        }
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder(failures.size() + " of " + sqls.size() + " queries failed");
            for (int i = 0; i < Math.min(5, failures.size()); i++) {
                sb.append("\n\n--- failure ").append(i + 1).append(" ---\n").append(failures.get(i).message());
            }
            throw new AssertionError(sb.toString());
        }
    }

    private static String stackHead(Throwable e) {
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        String[] lines = w.toString().split("\n");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(8, lines.length); i++) {
            sb.append(i == 0 ? "" : "\n").append(lines[i]);
        }
        return sb.toString();
    }
}
