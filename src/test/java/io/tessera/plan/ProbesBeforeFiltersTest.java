package io.tessera.plan;

import io.tessera.optimize.AscendingValues;
import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which probes move ahead of the filters before them, and which mark probes take those filters into their
 * condition: a table in cache, or a table in key order (perfect or ranged) probed by a stored column that ascends
 * with the row.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProbesBeforeFiltersTest {

    private static final int ROWS = 10_000;

    private Database db;
    private Column ascending;
    private Column shuffled;

    @BeforeAll
    void tables(@TempDir Path dir) {
        db = Database.openOrCreate(dir);
        TableSchema s = TableSchema.parse("t", "k_asc INTEGER NOT NULL, k_mixed INTEGER NOT NULL, v INTEGER NOT NULL");
        RowBatch b = new RowBatch(s, ROWS);
        List<Integer> mixed = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            mixed.add(r);
        }
        java.util.Collections.shuffle(mixed, new Random(5));
        for (int r = 0; r < ROWS; r++) {
            b.column(0).appendInt(r / 3);
            b.column(1).appendInt(mixed.get(r));
            b.column(2).appendInt(r % 100);
        }
        try (TableWriter w = db.replace(s)) {
            w.write(b);
            w.commit();
        }
        ascending = db.table("t").column("k_asc");
        shuffled = db.table("t").column("k_mixed");
    }

    @AfterAll
    void close() {
        if (db != null) {
            db.close();
        }
    }

    @Test
    void aColumnAscendsWhenItsSampledRowsDo() {
        assertTrue(AscendingValues.ascends(ascending));
        assertFalse(AscendingValues.ascends(shuffled));
    }

    @Test
    void aProbeIntoALargePerfectTableMovesOnlyWhenItsKeysAscend() {
        // 1M slots (4 MB, more than a cache) holding 100 rows: about 0.03 matches per row against the filter's half
        Sink.Build large = build(new KeyRange(0, 999_999), 100);
        List<Operation> asc = ops(filter(), new Operation.Probe(3, List.of(key(ascending)), JoinKind.INNER, large));
        ProbesBeforeFilters.apply(asc, rows(ROWS, ROWS / 2.0, 30));
        assertInstanceOf(Operation.Probe.class, asc.get(0));

        List<Operation> mixed = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.INNER, large));
        ProbesBeforeFilters.apply(mixed, rows(ROWS, ROWS / 2.0, 1));
        assertInstanceOf(Operation.Filter.class, mixed.get(0));

        // in cache (100 slots), the order of the keys does not matter
        Sink.Build small = build(new KeyRange(0, 99), 100);
        List<Operation> cached = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.INNER, small));
        ProbesBeforeFilters.apply(cached, rows(ROWS, ROWS / 2.0, 50));
        assertInstanceOf(Operation.Probe.class, cached.get(0));
    }

    @Test
    void aRangedTableIsReadInOrderByAscendingKeys() {
        // a span of 50M keys, too long for a perfect table: a hashed table the workers build ranged, its home slots
        // in key order, so ascending keys read it in order (orders' keys at TPC-H SF 10)
        KeyRange span = new KeyRange(0, 49_999_999);
        Sink.Build ranged = build(span, 1_000_000);
        assertTrue(RuntimeFilters.lookupsInOrder(new Operation.Probe(3, List.of(key(ascending)), JoinKind.INNER, ranged)));
        assertFalse(RuntimeFilters.lookupsInOrder(new Operation.Probe(3, List.of(key(shuffled)), JoinKind.INNER, ranged)));
        // too few rows to be built by the workers: indexed on one thread, hashed in no order
        Sink.Build serial = build(span, 8_000);
        assertFalse(RuntimeFilters.lookupsInOrder(new Operation.Probe(3, List.of(key(ascending)), JoinKind.INNER, serial)));
        // a span of more than 2^32 keys is hashed in no order
        Sink.Build wide = build(new KeyRange(0, 1L << 32), 1_000_000);
        assertFalse(RuntimeFilters.lookupsInOrder(new Operation.Probe(3, List.of(key(ascending)), JoinKind.INNER, wide)));
        // a perfect table of any size likewise
        Sink.Build perfect = build(new KeyRange(0, 999_999), 100);
        assertTrue(RuntimeFilters.lookupsInOrder(new Operation.Probe(3, List.of(key(ascending)), JoinKind.INNER, perfect)));
    }

    @Test
    void aLastMarkProbeTakesTheFiltersBeforeItIntoItsCondition() {
        Sink.Build small = build(new KeyRange(0, 99), 100);
        Expr residual = new Expr.Call(Op.NE, List.of(key(shuffled), key(ascending)), DataType.BOOLEAN, false);
        List<Operation> ops = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.MARK, small,
                residual));
        List<Double> rows = rows(ROWS, ROWS / 2.0, Double.NaN);
        ProbesBeforeFilters.apply(ops, rows);
        assertEquals(1, ops.size());
        Operation.Probe folded = (Operation.Probe) ops.get(0);
        assertEquals(JoinKind.MARK, folded.kind());
        assertEquals("and(lt(v, 50), ne(k_mixed, k_asc))", folded.residual().toString());
        assertEquals(2, rows.size());

        List<Operation> plain = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.MARK, small));
        ProbesBeforeFilters.apply(plain, rows(ROWS, ROWS / 2.0, Double.NaN));
        assertEquals("lt(v, 50)", ((Operation.Probe) plain.get(0)).residual().toString());
    }

    @Test
    void aMarkProbeKeepsItsFiltersWhereTheyDropMoreOrItsTableIsLargeAndUnordered() {
        // every row has a build row: the filter's half drops more
        Sink.Build full = build(new KeyRange(0, 99), 3 * ROWS);
        List<Operation> many = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.MARK, full));
        ProbesBeforeFilters.apply(many, rows(ROWS, ROWS / 2.0, Double.NaN));
        assertEquals(2, many.size());

        Sink.Build large = build(new KeyRange(0, 999_999), 100);
        List<Operation> unordered = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.MARK, large));
        ProbesBeforeFilters.apply(unordered, rows(ROWS, ROWS / 2.0, Double.NaN));
        assertEquals(2, unordered.size());

        List<Operation> ordered = ops(filter(), new Operation.Probe(3, List.of(key(ascending)), JoinKind.MARK, large));
        ProbesBeforeFilters.apply(ordered, rows(ROWS, ROWS / 2.0, Double.NaN));
        assertEquals(1, ordered.size());
    }

    @Test
    void aMarkProbeWithOperationsAfterItKeepsItsFilters() {
        Sink.Build small = build(new KeyRange(0, 99), 100);
        List<Operation> ops = ops(filter(), new Operation.Probe(3, List.of(key(shuffled)), JoinKind.MARK, small),
                filter());
        ProbesBeforeFilters.apply(ops, rows(ROWS, ROWS / 2.0, Double.NaN, ROWS / 4.0));
        assertEquals(3, ops.size());
        assertInstanceOf(Operation.Filter.class, ops.get(0));
    }

    private static Expr.Ref key(Column c) {
        return new Expr.Ref(Slot.source(c.name().equals("k_asc") ? 0 : 1, c.name(), DataType.INTEGER, false, null, c));
    }

    private Operation.Filter filter() {
        Expr v = new Expr.Ref(Slot.source(2, "v", DataType.INTEGER, false, null, db.table("t").column("v")));
        return new Operation.Filter(new Expr.Call(Op.LT, List.of(v, new Expr.Literal(50L, DataType.INTEGER)),
                DataType.BOOLEAN, false));
    }

    private static Sink.Build build(KeyRange range, double rows) {
        Expr.Ref k = new Expr.Ref(Slot.source(0, "b", DataType.INTEGER, false, null, null));
        return new Sink.Build(3, List.of(k), List.of(k), List.of("b"), false, range, rows,
                Arrays.asList((DataType) null));
    }

    private static List<Operation> ops(Operation... ops) {
        return new ArrayList<>(List.of(ops));
    }

    private static List<Double> rows(double... rows) {
        List<Double> out = new ArrayList<>();
        for (double r : rows) {
            out.add(r);
        }
        return out;
    }
}
