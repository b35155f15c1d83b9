package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.HashFunction;
import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Expr;
import io.tessera.plan.JoinKind;
import io.tessera.plan.Operation;
import io.tessera.plan.RuntimeFilters;
import io.tessera.plan.Sink;
import io.tessera.sql.SqlError;
import io.tessera.storage.TypeKind;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * PROBE: looks the row's keys up in a join table built by another pipeline ({@link JoinLookup}: how, by the table's
 * layout), then by the join kind skips the row (semi, anti, inner without a match) or loops over every build row
 * with the key (inner and left joins whose build keys repeat; the loop closes after the sink). Marking probes set
 * the marks of the build rows they match ({@link MarkEmitter}). A probe with a runtime join filter tests its keys
 * just before the lookup ({@link JoinFilterEmitter}).
 */
public final class ProbeEmitter {
    private ProbeEmitter() {
    }

    /** Emits probe {@code op}; {@code filter}: its runtime join filter's tests, null for none. */
    public static void emit(PipelineWriter w, Operation.Probe op, RuntimeFilters.ProbeFilter filter) {
        int j = op.joinId();
        Sink.Build b = op.build();
        w.comment("PROBE j" + j + " (" + op.kind() + ", " + w.g.get(JvmDimensions.probeTable(j)) + ") on " + w.codeNames.exprs(op.keys()));
        Keys k = keys(w, op);
        List<String> keys = k.values();
        List<String> nulls = k.nulls();
        JoinTable.Layout layout = JoinTable.Layout.of(w.g.get(JvmDimensions.probeTable(j)));
        // a probe that only asks whether its key is there reads a perfect table's bits, not its rows: a semi or anti
        // probe, or an inner one of unique keys whose payload nothing after it reads
        boolean presence = layout == JoinTable.Layout.PERFECT && op.residual() == null && !op.marks()
                && !b.keepsNullKeys() && switch (op.kind()) {
                    case SEMI, ANTI -> b.payload().isEmpty();
                    case INNER -> b.uniqueKeys() && !w.readsPayloadAfter(op);
                    case LEFT, MARK -> false;
                };
        if (filter != null && presence && filter.bloom()) {
            // the lookup reads the presence bits itself: a filter of the same bits would test them twice
            filter = filter.range() ? new RuntimeFilters.ProbeFilter(op, true, false) : null;
        }
        if (filter != null) {
            JoinFilterEmitter.emit(w, filter, k);
            nulls = List.of(); // the filter has dropped the rows with NULL keys
        }
        String r = "r" + j;
        w.joinRow.put(j, r);
        w.joinKind.put(j, op.kind());
        (presence ? JoinLookup.PRESENT : JoinLookup.of(layout, keys.size()))
                .emit(w, j, keys, r, layout.ways, HashFunction.ofJoin(w, j));
        String nullCond = String.join(" || ", nulls);
        if (!nullCond.isEmpty()) {
            w.line("if (" + nullCond + ") " + r + " = -1; // NULL keys never match");
        }
        if (op.kind() == JoinKind.MARK) {
            MarkEmitter.markMatches(w, op, r);
            return;
        }
        if (op.residual() != null && op.kind() != JoinKind.INNER) {
            residualMatch(w, op, r);
            MarkEmitter.markRow(w, op, r);
            return;
        }
        switch (op.kind()) {
            case SEMI -> w.line("if (" + r + " < 0) continue;");
            case ANTI -> w.line("if (" + r + " >= 0) continue;");
            case INNER -> {
                w.line("if (" + r + " < 0) continue;");
                if (!b.uniqueKeys()) {
                    String next = w.field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
                    w.line("do { // every build row with this key");
                    w.closers.add("} while ((" + r + " = " + next + "[" + r + "]) >= 0);");
                    w.indent++;
                    w.line(w.cancelCheck());
                }
            }
            case LEFT -> {
                if (!b.uniqueKeys()) {
                    String next = w.field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
                    w.line("do { // every build row with this key, or once with NULLs when none");
                    w.closers.add("} while (" + r + " >= 0 && (" + r + " = " + next + "[" + r + "]) >= 0);");
                    w.indent++;
                    w.line(w.cancelCheck());
                }
            }
            case MARK -> throw new IllegalStateException("a MARK probe has its own code");
        }
        if (op.residual() != null) {
            // an inner probe that marks: only a build row that meets the residual matches (and is marked)
            w.comment("residual condition of j" + j + ": " + w.codeNames.expr(op.residual()));
            w.load(op.residual());
            w.line("if (!(" + w.gen.gen(op.residual()).isTrue() + ")) continue;");
        }
        MarkEmitter.markRow(w, op, r);
    }

    /**
     * A probe's keys as the join table encodes them: {@code values}, the long variables holding them; {@code nulls},
     * the conditions under which a key is NULL or a string the build side's dictionary lacks (such a key never
     * matches).
     */
    record Keys(List<String> values, List<String> nulls) {
    }

    /** Emits the loads and encodings of the probe's keys. */
    static Keys keys(PipelineWriter w, Operation.Probe op) {
        Sink.Build b = op.build();
        List<String> keys = new ArrayList<>();
        List<String> nulls = new ArrayList<>();
        for (int k = 0; k < op.keys().size(); k++) {
            Expr e = op.keys().get(k);
            w.load(e);
            JExpr x = w.gen.gen(e);
            Expr bk = b.keys().get(k);
            String kv = w.name("key");
            String buildDict = BuildEmitter.buildKeyDict(bk);
            if (e.type().kind() == TypeKind.VARCHAR && buildDict == null) {
                throw new SqlError("unsupported: a join on a computed string");
            }
            w.line("final long " + kv + " = " + w.keyLong(x, e.type(), b.commonKeyTypes().get(k), buildDict) + ";");
            keys.add(kv);
            if (x.nullable()) {
                nulls.add(x.n());
            }
            if (x.kind() == ValueKind.CODE && buildDict != null && !buildDict.equals(x.dict())) {
                nulls.add("(" + kv + " < 0)");
            }
        }
        return new Keys(keys, nulls);
    }

    /**
     * A semi, anti or left probe whose match also needs the join's residual (non-equality) condition: the build rows
     * with the key are searched for the first that makes it TRUE; a semi probe keeps the row when there is one, an
     * anti probe when there is none, and a left probe goes on from that row (or once with NULLs when none), skipping
     * the later rows with the key that do not make it TRUE.
     */
    private static void residualMatch(PipelineWriter w, Operation.Probe op, String r) {
        int j = op.joinId();
        Expr cond = op.residual();
        w.comment("residual condition of j" + j + ": " + w.codeNames.expr(cond));
        w.loadExcept(cond, j);
        String next = op.build().uniqueKeys() ? null
                : w.field("int[]", "ctx.joinTable(" + j + ").next", "j" + j + "_next");
        String m = w.name("m");
        String found = w.name("found");
        w.line("int " + found + " = -1;");
        w.line("for (int " + m + " = " + r + "; " + m + " >= 0; " + m + " = "
                + (next == null ? "-1" : next + "[" + m + "]") + ") {");
        w.indent++;
        if (next != null) {
            w.line(w.cancelCheck());
        }
        Map<String, JExpr> saved = w.loads();
        JoinKind kind = w.joinKind.get(j);
        w.joinRow.put(j, m);
        w.joinKind.put(j, JoinKind.INNER); // a build row of the chain: its payload is never NULL-extended
        w.load(cond);
        w.line("if (" + w.gen.gen(cond).isTrue() + ") { " + found + " = " + m + "; break; }");
        w.forgetLoadsSince(saved);
        w.joinRow.put(j, r);
        w.joinKind.put(j, kind);
        w.indent--;
        w.line("}");
        switch (op.kind()) {
            case SEMI -> w.line("if (" + found + " < 0) continue;");
            case ANTI -> w.line("if (" + found + " >= 0) continue;");
            case LEFT -> {
                w.line(r + " = " + found + ";");
                if (next != null) {
                    w.line("do { // every build row with this key that meets the condition, or once with NULLs when none");
                    w.closers.add("} while (" + r + " >= 0 && (" + r + " = " + next + "[" + r + "]) >= 0);");
                    w.indent++;
                    w.line(w.cancelCheck());
                    // in a block of its own: the loads here read the residual's slots, not the NULL-extended ones
                    Map<String, JExpr> before = w.loads();
                    w.line("{");
                    w.indent++;
                    w.load(cond);
                    w.line("if (" + r + " >= 0 && !" + w.gen.gen(cond).isTrue() + ") continue;");
                    w.indent--;
                    w.line("}");
                    w.forgetLoadsSince(before);
                }
            }
            default -> throw new IllegalStateException("an inner probe's residual is a filter");
        }
    }
}
