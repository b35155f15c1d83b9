/**
 * Tests that need no hand-written expected rows: differential tests against DuckDB and metamorphic tests.
 *
 * <h2>Differential tests against DuckDB</h2>
 *
 * {@link io.tessera.difftest.RandomQueryGenerator} writes seeded random queries over the
 * {@link io.tessera.difftest.StarSchemaBuilder} star schema; {@link io.tessera.difftest.DifferentialHarness} runs
 * each in Tessera and DuckDB and compares the answers ({@link io.tessera.difftest.ResultComparator}).
 * {@code RandomQueryDifferentialTest} (500 queries), {@code RandomQueryVariantsDifferentialTest} (under random
 * genomes) and {@code RandomQueryConstructsDifferentialTest} (40 queries per construct) use them; the SSB and TPC-H
 * tests compare the benchmarks' queries.
 *
 * <p>The generator's SQL constructs beyond its base queries are named by {@link io.tessera.difftest.QueryConstruct}:
 * UNION, INTERSECT, EXCEPT, LEFT_JOIN, RIGHT_JOIN, FULL_JOIN, WINDOW, SCALAR_SUBQUERY, EXISTS_SUBQUERY, IN_SUBQUERY,
 * DISTINCT_AGGREGATE, STRING_FUNCTION. Those the engine runs are on by default (today every one); a construct can be
 * switched on or off with a system property, a comma-separated list that adds names to the default ones ({@code all},
 * {@code none} and {@code -NAME} too):
 *
 * <pre>
 * ./mvnw -o -B test -Dtest='RandomQuery*' -Dtessera.difftest.constructs=RIGHT_JOIN,FULL_JOIN,WINDOW
 * ./mvnw -o -B test -Dtest=RandomQueryConstructsDifferentialTest -Dtessera.difftest.constructs=all
 * </pre>
 *
 * Once the engine runs a construct, its default in {@code QueryConstruct} becomes {@code true}.
 * {@code RandomQueryExtensionsTest} checks that each construct is emitted and that DuckDB runs every query using it.
 * Other properties: {@code tessera.difftest.seed}, {@code tessera.difftest.dataSeed}, {@code tessera.difftest.queries},
 * {@code tessera.difftest.constructQueries}.
 *
 * <h2>Metamorphic tests</h2>
 *
 * {@link io.tessera.difftest.RandomSchema} writes two or three random tables (every column type, NULLs, duplicates,
 * empty tables) and {@link io.tessera.difftest.RandomPredicate} draws predicates over them. Two relations must hold
 * on Tessera alone:
 *
 * <ul>
 *   <li>{@code MetamorphicTlpTest}, ternary logic partitioning ({@link io.tessera.difftest.TlpCheck}): a query
 *       equals the union of itself under {@code WHERE p}, {@code WHERE NOT (p)} and {@code WHERE (p) IS NULL}, for
 *       rows, UNION ALL, DISTINCT, COUNT/SUM/MIN/MAX and GROUP BY, over one table and over joins (inner, LEFT,
 *       and RIGHT and FULL where {@code tessera.difftest.constructs} switches them on);
 *   <li>{@code MetamorphicNorecTest}, non-optimizing reference engine construction
 *       ({@link io.tessera.difftest.NorecCheck}): {@code COUNT(*) ... WHERE p} equals the count of rows for which
 *       {@code p}, evaluated in the select list, is true.
 * </ul>
 *
 * 1,000 checks per run (400 and 600) from fixed seeds. A failure prints the schema's seed and CREATE TABLE text, the
 * check's seed and every SQL text; {@code -Dtessera.metamorphic.schemaSeed=S -Dtessera.metamorphic.checkSeed=C}
 * replays it, {@code tessera.metamorphic.seed}, {@code .schemas} and {@code .checks} explore more.
 * {@link io.tessera.difftest.ExcludedConstruct} lists what the generators leave out because of a known bug, each
 * with a reproducing SQL; {@code -Dtessera.metamorphic.include=NAME} generates it anyway.
 */
package io.tessera.difftest;
