package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** DuckDB's string comparisons, digests and TRANSLATE ({@code sql.StringDistanceFunctions}) as {@link TextFunction} calls. */
final class StringDistanceCalls {

    private StringDistanceCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = switch (call.getOperator().getName().toUpperCase(Locale.ROOT)) {
            case "LEVENSHTEIN", "EDITDIST3" -> TextFunction.LEVENSHTEIN;
            case "DAMERAU_LEVENSHTEIN" -> TextFunction.DAMERAU_LEVENSHTEIN;
            case "HAMMING", "MISMATCHES" -> TextFunction.HAMMING;
            case "JARO_SIMILARITY" -> TextFunction.JARO_SIMILARITY;
            case "JARO_WINKLER_SIMILARITY" -> TextFunction.JARO_WINKLER_SIMILARITY;
            case "JACCARD" -> TextFunction.JACCARD;
            case "BIT_LENGTH" -> TextFunction.BIT_LENGTH;
            case "SHA1" -> TextFunction.SHA1;
            case "SHA256" -> TextFunction.SHA256;
            case "TRANSLATE", "TRANSLATE3" -> TextFunction.TRANSLATE; // TRANSLATE3: as Calcite's parser reads it
            default -> null;
        };
        if (f == null) {
            return null;
        }
        List<Expr> args = new ArrayList<>();
        for (RexNode o : call.getOperands()) {
            args.add(translate.apply(o));
        }
        return new Expr.Call(Op.FUNCTION, args, Types.of(call.getType()), call.getType().isNullable(), f);
    }
}
