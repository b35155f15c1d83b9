package io.tessera.sqltest;

import io.tessera.api.QueryResult;
import io.tessera.backend.cuda.runtime.GpuRuntime;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.QueryPlan;
import io.tessera.variant.Genome;
import io.tessera.variant.Genomes;
import io.tessera.variant.JvmVariantSpace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The state of one {@code .test} file while its records run in order: its database, and the genome and device
 * modes set by directives. Every failure names file:line, the SQL, and what was expected and what came.
 */
final class SqlFileRun implements AutoCloseable {

    /** {@code -Dtessera.golden.update=true}: rewrite golden blocks that differ instead of failing. */
    static final boolean UPDATE_GOLDEN = Boolean.getBoolean("tessera.golden.update");

    private final Path file;
    private final String name;
    private final SqlTestData data;
    private Path dir;
    private boolean shared;
    private SqlSession session;
    private SqlTestRecord.Genomes genomes = new SqlTestRecord.Genomes(0, false, Map.of());
    private boolean gpu;
    /** Lines added to the file by golden updates so far (later records' line numbers move by this). */
    private int shift;

    SqlFileRun(Path file, String name, SqlTestData data) {
        this.file = file;
        this.name = name;
        this.data = data;
    }

    void execute(SqlTestRecord r) {
        switch (r) {
            case SqlTestRecord.Load l -> load(l);
            case SqlTestRecord.Genomes g -> genomes = g;
            case SqlTestRecord.Device d -> gpu = d.gpu();
            case SqlTestRecord.Statement s -> statement(s);
            case SqlTestRecord.Query q -> query(q);
            case SqlTestRecord.Golden g -> golden(g);
        }
    }

    /** The file's database session, opened on first use. */
    SqlSession session() {
        if (session == null) {
            if (dir == null) {
                dir = data.scratch();
            }
            session = SqlSession.open(dir);
        }
        return session;
    }

    private void load(SqlTestRecord.Load l) {
        if (l.what().equals("tiny")) {
            if (shared) {
                throw new IllegalStateException(where(l) + "load tiny into a shared benchmark database");
            }
            closeSession();
            if (dir == null) {
                dir = data.scratch();
            }
            SqlTestData.writeTiny(dir, l.table(), l.columns(), l.rows());
        } else {
            if (dir != null) {
                throw new IllegalStateException(where(l) + "load " + l.what() + " must come first in the file");
            }
            dir = data.benchmark(l.what(), l.columns());
            shared = true;
        }
    }

    private void statement(SqlTestRecord.Statement s) {
        if (s.error() == null) {
            try {
                session().query(s.sql());
            } catch (RuntimeException e) {
                fail(where(s) + s.sql() + "\nexpected: ok\nactual: " + e, e);
            }
            return;
        }
        try {
            QueryResult r = session().query(s.sql());
            fail(where(s) + s.sql() + "\nexpected: an error containing '" + s.error() + "'\nactual: "
                    + r.rowCount() + " rows\n" + ResultText.render(ResultText.rows(r)));
        } catch (RuntimeException e) {
            String m = String.valueOf(e.getMessage());
            if (!m.contains(s.error())) {
                fail(where(s) + s.sql() + "\nexpected: an error containing '" + s.error() + "'\nactual: " + m, e);
            }
        }
    }

    private void query(SqlTestRecord.Query q) {
        if (gpu) {
            // every pipeline must be placed on the GPU; where there is none, the answer is checked on the JVM and
            // the GPU's answers are checked by `tessera selftest --device gpu` on a GPU machine
            for (String line : GpuPlacementText.lines(session(), q.sql())) {
                if (!line.endsWith(": gpu")) {
                    fail(where(q) + q.sql() + "\nasked for the GPU, placed on the JVM: " + line);
                }
            }
            if (GpuRuntime.unavailableReason() != null) {
                // planned as for the GPU (DISTINCT aggregates split in two), then run on the JVM
                run(q, () -> session().gpuEngine().execute(q.sql()), "on the JVM (no GPU here)");
                return;
            }
            QueryResult r = run(q, () -> session().gpuEngine().execute(q.sql()), "on the GPU");
            if (r.execution().device().equals("cpu")) {
                fail(where(q) + q.sql() + "\nasked for the GPU, ran on the JVM: " + r.execution().notice());
            }
            return;
        }
        run(q, () -> session().query(q.sql()), null);
        if (!"false".equals(System.getProperty("tessera.sqltest.gpuPlans")) && readsOnlyTables(q.sql())) {
            // the plan a GPU machine makes (its rewrites for the device: DISTINCT aggregates split, group keys that
            // may be NULL doubled, builds over unique keys), run on the JVM here: the same rows
            run(q, () -> session().gpuEngine().execute(q.sql()), "planned for the GPU, run on the JVM");
        }
        if (genomes.covering() || !genomes.fixed().isEmpty()) {
            QueryEngine engine = session().engine();
            QueryPlan plan = engine.plan(q.sql());
            List<Map<Integer, Genome>> plans = genomes.covering()
                    ? Genomes.coveringPlans(new JvmVariantSpace(), plan)
                    : List.of(FixedGenomes.apply(new JvmVariantSpace(), plan, genomes.fixed(), where(q)));
            for (Map<Integer, Genome> g : plans) {
                run(q, () -> engine.run(engine.prepareJvm(q.sql(), p -> g)), "under genomes " + g);
            }
        }
    }

    /**
     * Whether a query only reads (a SELECT or WITH, which a second run leaves as it was: none that moves a sequence)
     * and reads no file (the GPU engine of a session allows no directory).
     */
    private static boolean readsOnlyTables(String sql) {
        String s = sql.strip().toLowerCase(java.util.Locale.ROOT);
        return (s.startsWith("select") || s.startsWith("with") || s.startsWith("(")) && !s.contains("read_")
                && !s.matches("(?s).*\\b(from|join)\\s+'.*") && !s.matches("(?s).*\\b(nextval|setval)\\s*\\(.*");
    }

    /** Runs a query one way and compares its types and rows with the file's; {@code how} says the way (or null). */
    private QueryResult run(SqlTestRecord.Query q, java.util.function.Supplier<QueryResult> way, String how) {
        String context = where(q) + q.sql() + (how == null ? "" : "\n(" + how + ")");
        QueryResult r;
        try {
            r = way.get();
        } catch (RuntimeException e) {
            fail(context + "\nexpected rows:\n" + ResultText.render(ResultText.parseExpected(q.expected(), q.types().length()))
                    + "actual: " + e, e);
            return null;
        }
        String letters = ResultText.letters(r);
        if (!letters.equals(q.types())) {
            fail(context + "\nexpected column types: " + q.types() + "\nactual column types: " + letters);
        }
        boolean byValue = q.sort() == SqlTestRecord.SortMode.VALUESORT;
        List<List<String>> expected = ResultText.sorted(ResultText.parseExpected(q.expected(), letters.length()), q.sort());
        List<List<String>> actual = ResultText.sorted(ResultText.rows(r), q.sort());
        if (!ResultText.same(letters, expected, actual, byValue)) {
            fail(context + "\nexpected " + expected.size() + " rows:\n" + ResultText.render(expected)
                    + "actual " + actual.size() + " rows:\n" + ResultText.render(actual));
        }
        return r;
    }

    private void golden(SqlTestRecord.Golden g) {
        List<String> actual;
        try {
            actual = switch (g.kind()) {
                case EXPLAIN -> Arrays.asList(session().explain(g.sql()).split("\n"));
                case PLACEMENT -> GpuPlacementText.lines(session(), g.sql());
            };
        } catch (RuntimeException e) {
            fail(where(g) + g.sql() + "\nexpected:\n" + String.join("\n", g.expected()) + "\nactual: " + e, e);
            return;
        }
        if (actual.equals(g.expected())) {
            return;
        }
        if (UPDATE_GOLDEN) {
            rewrite(g.expectedFrom() + shift, g.expectedTo() + shift, actual);
            shift += actual.size() - g.expected().size();
            return;
        }
        fail(where(g) + g.sql() + "\nexpected:\n" + String.join("\n", g.expected()) + "\nactual:\n"
                + String.join("\n", actual) + "\n(regenerate golden blocks with -Dtessera.golden.update=true)");
    }

    /** Replaces lines [from, to) (0-based) of the file with {@code lines}. */
    private void rewrite(int from, int to, List<String> lines) {
        List<String> all = new ArrayList<>(SqlFilesTest.read(file));
        all.subList(from, to).clear();
        all.addAll(from, lines);
        try {
            Files.write(file, all, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String where(SqlTestRecord r) {
        return name + ":" + r.line() + ": ";
    }

    private void closeSession() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    @Override
    public void close() {
        closeSession();
    }
}
