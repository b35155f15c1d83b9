package io.tessera.difftest;

import io.tessera.Tessera;
import io.tessera.api.QueryResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs metamorphic checks over random schemas: {@code schemas} schemas, one database each, and {@code checks}
 * checks per schema, all from fixed seeds. A check the engine refuses ({@code unsupported: ...}) or that meets a
 * known failure ({@link ExcludedConstruct#matches}) is skipped and counted; any other error, or a relation that
 * does not hold, fails the run at the end with the schema (its seed and CREATE TABLE text), the check's seed and
 * every SQL text of the first failures.
 *
 * <p>System properties: {@code tessera.metamorphic.seed} (the run's seed, default 27), {@code
 * tessera.metamorphic.schemas} and {@code tessera.metamorphic.checks} (counts), and to replay one failure
 * {@code tessera.metamorphic.schemaSeed} with {@code tessera.metamorphic.checkSeed}, as the failure prints them.
 * {@code tessera.metamorphic.include} generates an {@link ExcludedConstruct} anyway.
 */
final class MetamorphicRunner {

    private static final int SHOW = 5;
    /** At most this share of checks may be refused as unsupported. */
    private static final double MAX_SKIPPED = 0.10;

    private MetamorphicRunner() {
    }

    static long schemaSeed(long runSeed, int schema) {
        return runSeed * 1_000L + schema;
    }

    static long checkSeed(long schemaSeed, int check) {
        return schemaSeed * 1_000_003L + check;
    }

    /** Runs the checks and fails with a description of the first failures; returns the number that ran. */
    static int run(Path root, String relation, int schemas, int checks,
                   BiFunction<RandomSchema, Long, MetamorphicCheck> generator) {
        Long replaySchema = Long.getLong("tessera.metamorphic.schemaSeed");
        Long replayCheck = Long.getLong("tessera.metamorphic.checkSeed");
        long runSeed = Long.getLong("tessera.metamorphic.seed", 27L);
        schemas = Integer.getInteger("tessera.metamorphic.schemas", schemas);
        checks = Integer.getInteger("tessera.metamorphic.checks", checks);
        long start = System.nanoTime();
        int ran = 0;
        int skipped = 0;
        List<String> failures = new ArrayList<>();
        Map<String, Integer> refusals = new LinkedHashMap<>();
        for (int s = 0; s < (replaySchema != null ? 1 : schemas); s++) {
            long schemaSeed = replaySchema != null ? replaySchema : schemaSeed(runSeed, s);
            Path dir = root.resolve("schema" + schemaSeed);
            RandomSchema schema = RandomSchema.build(dir, schemaSeed);
            try (Tessera t = Tessera.open(dir)) {
                // checks share queries (TLP's q, NoREC's reference): each SQL text runs once per schema
                Map<String, QueryResult> answers = new HashMap<>();
                Function<String, QueryResult> engine = sql -> {
                    QueryResult r = answers.get(sql);
                    if (r == null) {
                        r = t.query(sql);
                        answers.put(sql, r);
                    }
                    return r;
                };
                for (int i = 0; i < (replayCheck != null ? 1 : checks); i++) {
                    long seed = replayCheck != null ? replayCheck : checkSeed(schemaSeed, i);
                    MetamorphicCheck check = generator.apply(schema, seed);
                    String diff;
                    try {
                        diff = check.verify(engine);
                    } catch (RuntimeException | AssertionError e) {
                        String m = String.valueOf(e.getMessage());
                        ExcludedConstruct known = knownFailure(e);
                        if (known != null) {
                            m = "known: " + known;
                        }
                        if (known != null || m.contains("unsupported")) {
                            skipped++;
                            refusals.merge(m.length() > 120 ? m.substring(0, 120) : m, 1, Integer::sum);
                            continue;
                        }
                        diff = "the engine failed: " + stackHead(e);
                    }
                    ran++;
                    if (diff != null) {
                        failures.add(describe(relation, schema, check, diff));
                    }
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%s: %d checks ran, %d refused as unsupported, %d failed, in %.1f s%n", relation, ran,
                skipped, failures.size(), seconds);
        refusals.forEach((m, n) -> System.out.println("  refused " + n + "x: " + m));
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder(relation + ": " + failures.size() + " of " + ran + " checks failed");
            for (int i = 0; i < Math.min(SHOW, failures.size()); i++) {
                sb.append("\n\n--- failure ").append(i + 1).append(" ---\n").append(failures.get(i));
            }
            throw new AssertionError(sb.toString());
        }
        if (skipped > MAX_SKIPPED * (ran + skipped)) {
            throw new AssertionError(relation + ": " + skipped + " of " + (ran + skipped)
                    + " checks were refused as unsupported: " + refusals);
        }
        return ran;
    }

    private static ExcludedConstruct knownFailure(Throwable e) {
        for (ExcludedConstruct c : ExcludedConstruct.values()) {
            if (c.excluded() && c.matches(e)) {
                return c;
            }
        }
        return null;
    }

    private static String stackHead(Throwable e) {
        StringBuilder sb = new StringBuilder(e.toString());
        StackTraceElement[] st = e.getStackTrace();
        for (int i = 0; i < Math.min(8, st.length); i++) {
            sb.append("\n    at ").append(st[i]);
        }
        return sb.toString();
    }

    static String describe(String relation, RandomSchema schema, MetamorphicCheck check, String diff) {
        StringBuilder sb = new StringBuilder(check.name()).append(" does not hold: ").append(diff);
        sb.append("\nreplay: -Dtessera.metamorphic.schemaSeed=").append(schema.seed())
                .append(" -Dtessera.metamorphic.checkSeed=").append(check.seed());
        sb.append('\n').append(schema.describe());
        List<String> qs = check.queries();
        for (int i = 0; i < qs.size(); i++) {
            sb.append(i == 0 ? "\noriginal:  " : "\nvariant " + i + ": ").append(qs.get(i));
        }
        return sb.toString();
    }

}
