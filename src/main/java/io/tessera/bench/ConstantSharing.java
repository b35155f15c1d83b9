package io.tessera.bench;

import io.tessera.backend.jvm.gen.JavaCompiler;
import io.tessera.exec.QueryEngine;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What binding constants at run time saves: a suite's queries are prepared (planned, emitted, compiled) once as
 * written, then again with other constants (every number outside quotes plus one), which reuse the first run's
 * classes, then with other constants once more after the class cache is emptied, which compile every class again
 * in a JVM as warm as the second run's. The difference between the last two is the compile time saved.
 */
public final class ConstantSharing {

    private static final Pattern NUMBER_OUTSIDE_QUOTES = Pattern.compile("'(?:[^']|'')*'|(?<![\\w.#])(\\d+)(?![\\w.])");

    private ConstantSharing() {
    }

    /** The query with every unquoted integer literal increased by {@code delta}; quoted text left alone. */
    static String otherConstants(String sql, int delta) {
        Matcher m = NUMBER_OUTSIDE_QUOTES.matcher(sql);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String replacement = m.group(1) == null ? m.group() : Long.toString(Long.parseLong(m.group(1)) + delta);
            m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
        }
        return m.appendTail(sb).toString();
    }

    /** Prepares each query three ways and prints milliseconds and classes compiled per round. */
    public static void run(QueryEngine engine, List<Queries.Query> queries, PrintStream out) {
        out.printf(Locale.ROOT, "%-8s %14s %22s %22s%n", "query", "as written ms", "other constants ms",
                "recompiled ms");
        long[] totals = new long[3];
        long[] classes = new long[3];
        for (Queries.Query q : queries) {
            long[] ms = new long[3];
            for (int round = 0; round < 3; round++) {
                if (round == 2) {
                    JavaCompiler.clearCache();
                }
                String sql = round == 0 ? q.sql() : otherConstants(q.sql(), round);
                long compiles = JavaCompiler.compiles();
                long t0 = System.nanoTime();
                engine.prepare(sql);
                ms[round] = (System.nanoTime() - t0) / 1_000_000;
                totals[round] += ms[round];
                classes[round] += JavaCompiler.compiles() - compiles;
            }
            out.printf(Locale.ROOT, "%-8s %14d %22d %22d%n", q.name(), ms[0], ms[1], ms[2]);
        }
        out.printf(Locale.ROOT, "%-8s %14d %22d %22d%n", "total", totals[0], totals[1], totals[2]);
        out.printf(Locale.ROOT, "%-8s %14d %22d %22d%n", "classes", classes[0], classes[1], classes[2]);
        out.printf(Locale.ROOT, "other constants reuse the classes: %d ms against %d ms compiling them again (%.1fx)%n",
                totals[1], totals[2], totals[1] == 0 ? 0.0 : (double) totals[2] / totals[1]);
    }
}
