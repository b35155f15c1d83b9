package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.JvmBackend;
import io.tessera.backend.jvm.JvmExecutor;
import io.tessera.backend.host.MatRelation;
import io.tessera.backend.host.RelationPart;
import io.tessera.backend.host.RowBuffer;
import io.tessera.bench.TinySsbDatabase;
import io.tessera.exec.QueryEngine;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A relation made on another device reaches the JVM's pipelines through one move: the grouped rows of a query,
 * handed over as device-neutral host rows (codes of a string key, NULLs), are read by its sort as the JVM's own
 * relation would be, and the move is counted.
 */
class RelationMoveTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(5, 50_000);

    private static final String SQL = "SELECT d_month, d_year, SUM(lo_revenue) AS r, MIN(CASE WHEN lo_quantity > 60 "
            + "THEN lo_discount END) AS never FROM lineorder, ddate WHERE lo_orderdate = d_datekey "
            + "GROUP BY d_month, d_year ORDER BY d_year, d_month";

    @Test
    void groupsMovedFromAnotherDeviceAreSortedOnTheJvm() {
        QueryEngine engine = new QueryEngine(SSB.db(), 2);
        QueryEngine.Prepared p = engine.prepare(SQL);
        List<String> expected = new ArrayList<>();
        for (Object[] row : engine.run(p).rows()) {
            expected.add(Arrays.toString(row));
        }
        assertTrue(expected.size() > 10, "months of several years");
        QueryPlan plan = p.plan();
        try (QueryState state = new QueryState(SSB.db(), plan, null)) {
            JvmBackend.INSTANCE.startQuery(state);
            int grouped = -1;
            for (Pipeline pl : plan.pipelines()) {
                p.jvm().run(pl, state);
                if (pl.sink() instanceof Sink.GroupAggregate ga) {
                    grouped = ga.relationId();
                    RelationPart host = hostRows(JvmBackend.hostRelation(state, grouped));
                    state.putRelation(grouped, new Intermediate(Intermediate.Kind.RELATION, "elsewhere",
                            (Intermediate.OnDevice) () -> host));
                }
            }
            assertTrue(grouped >= 0, "the plan groups into a relation");
            MatRelation result = JvmBackend.hostRelation(state, plan.resultRelation());
            List<String> got = new ArrayList<>();
            for (int r = 0; r < result.rowCount(); r++) {
                Object[] row = new Object[result.columns().size()];
                for (int c = 0; c < row.length; c++) {
                    row[c] = JvmExecutor.value(result, c, r);
                }
                got.add(Arrays.toString(row));
            }
            assertEquals(expected, got);
            assertEquals(1, state.moves());
            assertTrue(state.steps().stream().anyMatch(s -> s.startsWith("move relation elsewhere->host")), state.steps().toString());
        }
    }

    /** A JVM relation's rows as another device would hand them over: copies of its columns, its codes' keys. */
    private static RelationPart hostRows(MatRelation m) {
        RowBuffer b = m.rows;
        int n = b.size;
        ValueKind[] kinds = new ValueKind[b.kinds.length];
        String[] dicts = new String[kinds.length];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = b.kinds[c];
            dicts[c] = m.columns().get(c).dictionaryKey();
        }
        RelationPart part = RelationPart.allocate(kinds, dicts, n);
        RowBuffer h = part.rows();
        for (int c = 0; c < kinds.length; c++) {
            switch (kinds[c]) {
                case INT, CODE -> System.arraycopy(b.ints[c], 0, h.ints[c], 0, n);
                case LONG -> System.arraycopy(b.longs[c], 0, h.longs[c], 0, n);
                case DOUBLE -> System.arraycopy(b.doubles[c], 0, h.doubles[c], 0, n);
                case BOOL -> System.arraycopy(b.bytes[c], 0, h.bytes[c], 0, n);
                case STRING -> System.arraycopy(b.strings[c], 0, h.strings[c], 0, n);
            }
            for (int r = 0; r < n; r++) {
                if (b.isNull(c, r)) {
                    h.setNull(c, r);
                }
            }
        }
        return part;
    }
}
