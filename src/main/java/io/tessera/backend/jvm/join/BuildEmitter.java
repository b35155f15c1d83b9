package io.tessera.backend.jvm.join;

import io.tessera.backend.jvm.gen.JExpr;
import io.tessera.backend.jvm.gen.PipelineWriter;
import io.tessera.plan.Expr;
import io.tessera.plan.Sink;
import io.tessera.storage.TypeKind;
import io.tessera.variant.JvmDimensions;

import java.util.ArrayList;
import java.util.List;

/**
 * BUILD: the build side of a join writes each row's payload and encoded keys into the worker's row buffer (rows
 * with a NULL key never match and are skipped, unless the table keeps them for a scan of its unmarked rows: then
 * its last key tells them apart); the executor then builds the join table of the genome's layout ({@code ht}) from
 * the buffers.
 */
public final class BuildEmitter {
    private BuildEmitter() {
    }

    public static void emit(PipelineWriter w, Sink.Build b) {
        w.comment("BUILD j" + b.joinId() + " (" + w.g.get(JvmDimensions.HASH_TABLE) + ") keys " + w.codeNames.exprs(b.keys()) + " payload " + w.codeNames.exprs(b.payload()));
        w.bufferLayout(b.payload(), b.keys().size());
        w.before.append("        final io.tessera.backend.host.RowBuffer out = (io.tessera.backend.host.RowBuffer) sinkState;\n");
        List<String> keyVals = new ArrayList<>();
        for (int k = 0; k < b.keys().size(); k++) {
            Expr e = b.keys().get(k);
            w.load(e);
            JExpr x = w.gen.gen(e);
            if (x.nullable() && !b.keepsNullKeys()) {
                w.line("if (" + x.n() + ") continue; // a NULL key never matches");
            }
            keyVals.add(w.keyLong(x, e.type(), b.commonKeyTypes().get(k), null));
        }
        w.line("final int w = out.next();");
        for (int c = 0; c < b.payload().size(); c++) {
            w.store("out", c, w.gen.gen(b.payload().get(c)), "w");
        }
        for (int k = 0; k < keyVals.size(); k++) {
            w.line("out.longs[" + (b.payload().size() + k) + "][w] = " + keyVals.get(k) + ";");
        }
    }

    /** The dictionary of a build key that is a dictionary column (probe keys of other dictionaries map to it), or null. */
    static String buildKeyDict(Expr buildKey) {
        return buildKey.type().kind() == TypeKind.VARCHAR && buildKey instanceof Expr.Ref r ? r.slot().dictionaryKey() : null;
    }
}
