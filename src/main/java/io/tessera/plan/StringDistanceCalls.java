package io.tessera.plan;

import io.tessera.storage.DataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;

import java.util.Map;
import java.util.function.Function;

/** DuckDB's string comparisons, digests and TRANSLATE ({@code sql.StringDistanceFunctions}) as {@link TextFunction} calls. */
final class StringDistanceCalls {

    private static final Map<String, TextFunction> NAMES = Map.ofEntries(
            Map.entry("LEVENSHTEIN", TextFunction.LEVENSHTEIN),
            Map.entry("EDITDIST3", TextFunction.LEVENSHTEIN),
            Map.entry("DAMERAU_LEVENSHTEIN", TextFunction.DAMERAU_LEVENSHTEIN),
            Map.entry("HAMMING", TextFunction.HAMMING),
            Map.entry("MISMATCHES", TextFunction.HAMMING),
            Map.entry("JARO_SIMILARITY", TextFunction.JARO_SIMILARITY),
            Map.entry("JARO_WINKLER_SIMILARITY", TextFunction.JARO_WINKLER_SIMILARITY),
            Map.entry("JACCARD", TextFunction.JACCARD),
            Map.entry("BIT_LENGTH", TextFunction.BIT_LENGTH),
            Map.entry("SHA1", TextFunction.SHA1),
            Map.entry("SHA256", TextFunction.SHA256),
            Map.entry("TRANSLATE", TextFunction.TRANSLATE),
            Map.entry("TRANSLATE3", TextFunction.TRANSLATE)); // TRANSLATE3: as Calcite's parser reads it

    private StringDistanceCalls() {
    }

    /** The lowered call, or null when it is none of these. */
    static Expr lower(RexCall call, Function<RexNode, Expr> translate) {
        TextFunction f = TextCalls.named(call, NAMES);
        return f == null ? null : TextCalls.call(f, TextCalls.operands(call, translate), call);
    }
}
