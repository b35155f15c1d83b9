package io.tessera.backend.jvm.run;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.jvm.BlockControl;
import io.tessera.backend.jvm.gen.EmittedPipeline;
import io.tessera.backend.jvm.gen.PipelineCode;
import io.tessera.backend.jvm.gen.PipelineContext;
import io.tessera.backend.jvm.join.JoinTable;
import io.tessera.backend.host.ColumnData;
import io.tessera.backend.host.HostRelations;
import io.tessera.backend.host.MatRelation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.Source;
import io.tessera.storage.Dictionary;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one compiled pipeline on the JVM: gives its code its source columns (a table's, read on first use, a
 * relation's, moved to the host first where it is on another device, or a join table's payload, whose marked or
 * unmarked rows the code reads), the join tables it probes and the
 * dictionaries it reads; runs its rows on the workers (or in a tuner's blocks), then finishes its sink.
 */
public final class PipelineRunner {

    private PipelineRunner() {
    }

    public static void run(QueryState state, EmittedPipeline e, Class<? extends PipelineCode> cls) {
        Pipeline p = e.pipeline();
        List<ColumnData> columns;
        long rows;
        if (p.source() instanceof Source.TableScan ts) {
            rows = ts.table().rowCount();
            ColumnData[] cols = new ColumnData[ts.columns().size()];
            columns = new AbstractList<>() {
                @Override
                public ColumnData get(int i) {
                    synchronized (cols) {
                        if (cols[i] == null) {
                            cols[i] = ColumnData.of(ts.table().column(i));
                        }
                        return cols[i];
                    }
                }

                @Override
                public int size() {
                    return cols.length;
                }
            };
        } else if (p.source() instanceof Source.JoinTableScan js) {
            JoinTable t = joinTable(state, js.joinId());
            rows = t.rows;
            columns = t.payloadColumns(js.columns(), state::dictionary);
        } else {
            Source.RelationScan rs = (Source.RelationScan) p.source();
            MatRelation r = HostRelations.onHost(state, rs.relationId());
            rows = r.rowCount();
            columns = r.columnData(state::dictionary);
        }
        PipelineCode code;
        try {
            code = cls.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
        PipelineContext ctx = new PipelineContext() {
            @Override
            public ColumnData column(int i) {
                return columns.get(i);
            }

            @Override
            public JoinTable joinTable(int joinId) {
                return state.join(joinId) == null ? null : PipelineRunner.joinTable(state, joinId);
            }

            @Override
            public Dictionary dictionary(String key) {
                return state.dictionary(key);
            }

            @Override
            public io.tessera.api.QueryCancel cancel() {
                return state.cancel();
            }
        };
        code.init(ctx, e.constants().toArray());
        state.actuals().rows(p, 0, rows);
        state.pipelineStarted(rows);
        BlockControl control = MorselRunner.options(state).blocks();
        BlockControl.Blocks blocks = control == null ? null : control.blocks(p, e.genome());
        if (blocks != null) {
            BlockRunner.run(state, e, code, ctx, blocks, rows);
            return;
        }
        Object shared = SinkStates.shared(e);
        List<Object> states = new ArrayList<>();
        if (shared != null) {
            states.add(shared);
        }
        MorselRunner.run(state, e, code, e.genome(), 0, rows, states, shared != null);
        if (states.isEmpty()) {
            states.add(SinkStates.perWorker(e));
        }
        SinkFinisher.finish(state, e, code, states);
    }

    /** Join {@code joinId}'s table, which must have been built on the JVM. */
    private static JoinTable joinTable(QueryState state, int joinId) {
        Intermediate h = state.join(joinId);
        if (h == null) {
            throw new IllegalStateException("join j" + joinId + " was not built before it is read");
        }
        if (!(h.value() instanceof JoinTable t)) {
            throw new IllegalStateException("join j" + joinId + " has its table on " + h.device() + ", not on the JVM");
        }
        return t;
    }
}
