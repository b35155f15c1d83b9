package io.tessera.backend.host;

import io.tessera.backend.Intermediate;
import io.tessera.backend.QueryState;
import io.tessera.backend.ValueKind;
import io.tessera.plan.ColumnInfo;
import io.tessera.plan.Sink;
import io.tessera.storage.Dictionary;
import io.tessera.storage.TypeKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;

/**
 * Relations on the host, whichever device made their rows: rows a device handed over taken as they are, a
 * relation completed from its writers' parts (UNION ALL's parts concatenated with their dictionaries unified, then
 * cut to a LIMIT and OFFSET), VALUES, each published as a {@link MatRelation} whose string columns are codes into
 * dictionaries registered under the columns' keys. A sort or window over the parts is a device's work, which ends
 * in {@link #union} and {@link #publish}.
 */
public final class HostRelations {

    private HostRelations() {
    }

    /** Relation {@code rel} as a host relation, moved from its device first where it is elsewhere. */
    public static MatRelation onHost(QueryState state, int rel) {
        Intermediate h = state.relation(rel);
        if (h == null) {
            throw new IllegalStateException("relation r" + rel + " was not made before it is read");
        }
        if (h.value() instanceof MatRelation m) {
            return m;
        }
        RelationPart p = part(state, state.moveToHost(h));
        return publish(state, rel, p.rows(), p.dictionaries());
    }

    /** A part as a row buffer on the host (moved there, and its arrays taken as they are, where elsewhere). */
    public static RelationPart part(QueryState state, Intermediate h) {
        if (h.value() instanceof RelationPart p) {
            return p;
        }
        return (RelationPart) state.moveToHost(h).value();
    }

    /**
     * Completes relation {@code rel} of MATERIALIZE sink {@code m} from its writers' parts: concatenated (UNION ALL,
     * by {@code pool}'s threads), then cut to the sink's LIMIT and OFFSET.
     */
    public static MatRelation complete(QueryState state, Sink.Materialize m, List<Intermediate> handles,
                                       ExecutorService pool) {
        RelationPart all = union(state, m.relationId(), handles, pool);
        return publish(state, m.relationId(), slice(all.rows(), m.offset(), m.fetch()), all.dictionaries());
    }

    /** Publishes the rows of relation {@code rel}: VARCHAR dictionaries registered, codes kept. */
    public static MatRelation publish(QueryState state, int rel, RowBuffer rows, String[] srcDicts) {
        codesToRelation(state, rel, rows, srcDicts);
        List<ColumnInfo> cols = state.relationColumns(rel);
        for (int c = 0; c < cols.size(); c++) {
            if (rows.kinds[c] == ValueKind.STRING) {
                state.register(cols.get(c).dictionaryKey(), rows.encodeStrings(c));
            }
        }
        MatRelation m = new MatRelation(rows, cols);
        m.dictionaries = new Dictionary[cols.size()];
        for (int c = 0; c < cols.size(); c++) {
            if (cols.get(c).dictionaryKey() != null) {
                m.dictionaries[c] = state.dictionary(cols.get(c).dictionaryKey());
            }
        }
        state.putRelation(rel, new Intermediate(Intermediate.Kind.RELATION, Intermediate.HOST, m));
        return m;
    }

    /** Registers the dictionaries of a relation's VARCHAR columns under the keys its readers use. */
    private static void codesToRelation(QueryState state, int rel, RowBuffer b, String[] srcDicts) {
        List<ColumnInfo> cols = state.relationColumns(rel);
        for (int c = 0; c < cols.size(); c++) {
            ColumnInfo ci = cols.get(c);
            if (ci.type().kind() != TypeKind.VARCHAR) {
                continue;
            }
            if (b.kinds[c] == ValueKind.STRING) {
                state.register(ci.dictionaryKey(), b.encodeStrings(c));
            } else if (srcDicts[c] != null && !srcDicts[c].equals(ci.dictionaryKey())) {
                state.register(ci.dictionaryKey(), state.dictionary(srcDicts[c]));
            }
        }
    }

    /**
     * The parts written into relation {@code rel} (UNION ALL inputs) on the host, concatenated by {@code pool}'s
     * threads into one, VARCHAR dictionaries unified.
     */
    public static RelationPart union(QueryState state, int rel, List<Intermediate> handles, ExecutorService pool) {
        List<RelationPart> parts = new ArrayList<>();
        for (Intermediate h : handles) {
            parts.add(part(state, h));
        }
        List<ColumnInfo> cols = state.relationColumns(rel);
        ValueKind[] kinds = parts.get(0).rows().kinds.clone();
        String[] srcDicts = parts.get(0).dictionaries().clone();
        for (int c = 0; c < kinds.length; c++) {
            boolean mixed = false;
            for (RelationPart p : parts) {
                RowBuffer b = p.rows();
                if (b.kinds[c] != kinds[c] || (b.kinds[c] == ValueKind.CODE && !Objects.equals(p.dictionaries()[c], srcDicts[c]))) {
                    mixed = true;
                }
            }
            if (mixed && cols.get(c).type().kind() == TypeKind.VARCHAR) {
                for (RelationPart p : parts) {
                    decodeToStrings(state, p.rows(), c, p.dictionaries()[c]);
                }
                kinds[c] = ValueKind.STRING;
            } else if (mixed) {
                throw new IllegalStateException("UNION ALL inputs disagree on the representation of column " + c);
            }
        }
        if (parts.size() == 1) {
            return new RelationPart(parts.get(0).rows(), srcDicts);
        }
        List<RowBuffer> buffers = new ArrayList<>();
        for (RelationPart p : parts) {
            buffers.add(p.rows());
        }
        return new RelationPart(RowCopies.concat(kinds, buffers, pool, buffers.size()), srcDicts);
    }

    private static void decodeToStrings(QueryState state, RowBuffer b, int c, String dict) {
        if (b.kinds[c] == ValueKind.STRING) {
            return;
        }
        Dictionary d = state.dictionary(dict);
        String[] s = new String[Math.max(b.size, b.ints[c].length)];
        for (int r = 0; r < b.size; r++) {
            s[r] = b.isNull(c, r) ? null : d.value(b.ints[c][r]);
        }
        b.strings[c] = s;
        b.ints[c] = null;
        b.kinds[c] = ValueKind.STRING;
    }

    /** Rows {@code [offset, offset + fetch)} of a buffer (fetch below 0: all after the offset). */
    private static RowBuffer slice(RowBuffer all, long offset, long fetch) {
        if (offset == 0 && (fetch < 0 || fetch >= all.size)) {
            return all;
        }
        int from = (int) Math.min(offset, all.size);
        int to = fetch < 0 ? all.size : (int) Math.min(all.size, offset + fetch);
        int[] idx = new int[to - from];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = from + i;
        }
        return RowGather.gather(all, idx, 0, idx.length, HostWorkers.ONE);
    }

    /** The query's VALUES relations, published before its first pipeline runs. */
    public static void publishValues(QueryState state) {
        for (Map.Entry<Integer, List<Object[]>> v : state.plan().values().entrySet()) {
            valuesRelation(state, v.getKey(), v.getValue());
        }
    }

    private static void valuesRelation(QueryState state, int rel, List<Object[]> rows) {
        List<ColumnInfo> cols = state.relationColumns(rel);
        ValueKind[] kinds = new ValueKind[cols.size()];
        for (int c = 0; c < kinds.length; c++) {
            kinds[c] = cols.get(c).type().kind() == TypeKind.VARCHAR ? ValueKind.STRING : ValueKind.stored(cols.get(c).type());
        }
        RowBuffer b = new RowBuffer(kinds, rows.size());
        for (Object[] row : rows) {
            int w = b.next();
            for (int c = 0; c < kinds.length; c++) {
                Object v = row[c];
                if (v == null) {
                    b.setNull(c, w);
                    continue;
                }
                switch (kinds[c]) {
                    case INT -> b.ints[c][w] = ((Number) v).intValue();
                    case LONG -> b.longs[c][w] = ((Number) v).longValue();
                    case DOUBLE -> b.doubles[c][w] = ((Number) v).doubleValue();
                    case BOOL -> b.bytes[c][w] = (byte) (((Boolean) v) ? 1 : 0);
                    case STRING -> b.strings[c][w] = v.toString();
                    default -> throw new IllegalStateException();
                }
            }
        }
        publish(state, rel, b, new String[kinds.length]);
    }
}
