package io.tessera.backend.jvm.aggregate;

import io.tessera.backend.ValueKind;
import io.tessera.backend.jvm.gen.PipelineWriter;

import java.util.ArrayList;
import java.util.List;

/**
 * The ordered strategy of GROUP_AGGREGATE ({@code agg=ordered}, {@link GroupAggregation#ORDERED}): a row whose keys
 * equal the previous row's of the morsel updates that row's group; any other row appends a new group to the
 * worker's table, with no lookup, and notes when its keys are below the previous ones (then the morsel's groups are
 * not in key order, and {@link OrderedMerge} merges by hash). Keys are compared as the hash tables encode them,
 * word by word: one total order that every worker's table shares, except for interned strings, whose ids are the
 * table's own (a string key sends every group through the hash merge).
 */
final class OrderedGroupEmitter {
    private OrderedGroupEmitter() {
    }

    static void emit(GroupAggregateEmitter e) {
        PipelineWriter w = e.w;
        w.before.append("        final io.tessera.backend.jvm.aggregate.OrderedRuns runs = (io.tessera.backend.jvm.aggregate.OrderedRuns) sinkState;\n");
        w.before.append("        final io.tessera.backend.jvm.aggregate.HashGroupTable t = runs.table;\n");
        w.before.append("        runs.morsel(); // this morsel's groups begin here\n");
        boolean strings = e.keys.stream().anyMatch(k -> k.kind() == ValueKind.STRING);
        if (strings) {
            w.before.append("        runs.ordered = false; // interned string ids are not ordered across tables\n");
        }
        String group = w.name("runGroup");
        w.before.append("        int ").append(group).append(" = -1; // the group of the run of equal keys\n");
        List<String> enc = e.encodedKeys(false);
        List<String> cur = new ArrayList<>();
        List<String> prev = new ArrayList<>();
        List<String> differs = new ArrayList<>();
        for (String k : enc) {
            String c = w.name("groupKey");
            String p = w.name("runKey");
            w.before.append("        long ").append(p).append(" = 0L;\n");
            w.line("final long " + c + " = " + k + ";");
            cur.add(c);
            prev.add(p);
            differs.add(c + " != " + p);
        }
        w.line("if (" + group + " < 0 || " + String.join(" || ", differs) + ") {");
        w.indent++;
        if (!strings) {
            w.line("if (" + group + " >= 0 && " + below(cur, prev, 0) + ") runs.ordered = false; // the keys decreased");
        }
        if (cur.size() == 1) {
            w.line(group + " = t.append1(" + cur.get(0) + ");");
        } else if (cur.size() == 2) {
            w.line(group + " = t.append2(" + cur.get(0) + ", " + cur.get(1) + ");");
        } else {
            for (int k = 0; k < cur.size(); k++) {
                w.line("t.scratch[" + k + "] = " + cur.get(k) + ";");
            }
            w.line(group + " = t.appendN();");
        }
        for (int k = 0; k < cur.size(); k++) {
            w.line(prev.get(k) + " = " + cur.get(k) + ";");
        }
        w.indent--;
        w.line("}");
        w.line("final int grp = " + group + ";");
        e.updates();
    }

    /** Whether key words {@code cur[i..]} are below {@code prev[i..]}, word by word (those before equal). */
    private static String below(List<String> cur, List<String> prev, int i) {
        String less = cur.get(i) + " < " + prev.get(i);
        if (i == cur.size() - 1) {
            return less;
        }
        return "(" + less + " || " + cur.get(i) + " == " + prev.get(i) + " && " + below(cur, prev, i + 1) + ")";
    }
}
