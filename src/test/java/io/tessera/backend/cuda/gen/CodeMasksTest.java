package io.tessera.backend.cuda.gen;

import io.tessera.plan.Expr;
import io.tessera.plan.Op;
import io.tessera.plan.Slot;
import io.tessera.plan.TextFunction;
import io.tessera.sql.LikePattern;
import io.tessera.storage.DataType;
import io.tessera.storage.Dictionary;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which conditions over one dictionary column become masks of codes, and that each code's bit is the condition's
 * value for the code's string (checked string by string against Java's own evaluation of the same SQL).
 */
class CodeMasksTest {

    private static final Dictionary WORDS = Dictionary.of(List.of("special requests", "quick special packages requests",
            "13-345-100", "31-999-111", "", "SM BAG", "sm box", "LG CASE", "requests special", "Zürich 😀 %_",
            "13", "1", "forest green", "greenish"));
    private static final Expr COL = new Expr.Ref(Slot.source(0, "c", DataType.VARCHAR, false, "t.c", null));
    private static final Expr OTHER = new Expr.Ref(Slot.source(1, "d", DataType.VARCHAR, false, "t.d", null));

    private static Expr like(Expr x, String pattern) {
        return new Expr.Call(Op.LIKE, List.of(x), DataType.BOOLEAN, false, LikePattern.toRegex(pattern, null));
    }

    private static Expr call(Op op, Expr... args) {
        return new Expr.Call(op, List.of(args), DataType.BOOLEAN, false);
    }

    private static Expr text(String s) {
        return new Expr.Literal(s, DataType.VARCHAR);
    }

    private static Expr substring(long start, long length) {
        return new Expr.Call(Op.FUNCTION, List.of(COL, new Expr.Literal(start, DataType.INTEGER),
                new Expr.Literal(length, DataType.INTEGER)), DataType.VARCHAR, false, TextFunction.SUBSTRING);
    }

    private static void assertMask(Expr condition, Predicate<String> expected) {
        assertNotNull(CodeMasks.column(condition), condition + " should be a mask");
        int[] words = CodeMasks.mask(condition, WORDS);
        assertEquals((WORDS.size() + 31) / 32, words.length);
        for (int k = 0; k < WORDS.size(); k++) {
            boolean bit = (words[k >>> 5] >>> (k & 31) & 1) != 0;
            assertEquals(expected.test(WORDS.value(k)), bit, condition + " for '" + WORDS.value(k) + "'");
        }
    }

    @Test
    void likesThatAreNotPrefixesBecomeMasks() {
        Pattern p = Pattern.compile(".*special.*requests.*", Pattern.DOTALL);
        assertMask(like(COL, "%special%requests%"), s -> p.matcher(s).matches());
        assertMask(call(Op.NOT, like(COL, "%special%requests%")), s -> !p.matcher(s).matches());
        assertMask(like(COL, "%green"), s -> s.endsWith("green"));
        assertMask(like(COL, "_3%"), s -> s.length() >= 2 && s.charAt(1) == '3');
        assertMask(call(Op.OR, like(COL, "%BAG"), call(Op.EQ, COL, text("LG CASE"))),
                s -> s.endsWith("BAG") || s.equals("LG CASE"));
    }

    @Test
    void substringsInComparisonsBecomeMasks() {
        List<String> codes = List.of("13", "31", "23");
        Expr in = new Expr.Call(Op.IN_LIST, List.of(substring(1, 2)), DataType.BOOLEAN, false, codes);
        assertMask(in, s -> codes.contains(s.codePointCount(0, s.length()) >= 2
                ? s.substring(0, s.offsetByCodePoints(0, 2)) : s));
        // a negative start counts back from the end; a code point above U+FFFF counts once
        assertMask(call(Op.EQ, substring(-4, 2), text("😀 ")), s -> s.equals("Zürich 😀 %_"));
        assertMask(call(Op.LT, substring(1, 1), text("2")), s -> s.isEmpty() || s.codePointAt(0) < '2');
    }

    @Test
    void whatTheGpuComparesByItselfOrCannotComputeIsNoMask() {
        assertNull(CodeMasks.column(like(COL, "sm%")), "a prefix is a run of codes");
        assertNull(CodeMasks.column(call(Op.EQ, COL, text("13"))), "a constant is one code");
        assertNull(CodeMasks.column(call(Op.AND, like(COL, "%a"), like(OTHER, "%b"))), "two columns");
        Expr nullable = new Expr.Ref(Slot.source(2, "n", DataType.VARCHAR, true, "t.n", null));
        Expr likeNullable = new Expr.Call(Op.LIKE, List.of(nullable), DataType.BOOLEAN, true, ".*a");
        assertNotNull(CodeMasks.column(likeNullable),
                "a LIKE is NULL exactly where its column is: the mask's value takes the column's NULL condition");
        assertNotNull(CodeMasks.column(call(Op.OR, like(nullable, "%a"), call(Op.NOT, like(nullable, "b%c")))),
                "AND, OR and NOT of conditions that each read the column");
        Expr notTrue = new Expr.Call(Op.IS_NOT_TRUE, List.of(likeNullable), DataType.BOOLEAN, false);
        assertNotNull(CodeMasks.column(notTrue), "IS NOT TRUE: TRUE where its column is NULL, the mask's last bit");
        assertTrue(CodeMasks.nullWhereColumnIs(likeNullable));
        assertFalse(CodeMasks.nullWhereColumnIs(notTrue));
        Dictionary d = Dictionary.of(List.of("ba", "bb"));
        int[] bits = CodeMasks.mask(notTrue, d);
        assertEquals(0b110, bits[0], "'ba' matches .*a, 'bb' does not, NULL is not TRUE");
        assertEquals(CodeMasks.nullBit(d), 2);
        Expr orIsNull = call(Op.OR, like(nullable, "%a"), new Expr.Call(Op.IS_NULL, List.of(nullable), DataType.BOOLEAN, false));
        assertEquals(0b101, CodeMasks.mask(orIsNull, d)[0], "NULL LIKE ... OR NULL IS NULL is TRUE");
        Expr distinct = new Expr.Call(Op.IS_DISTINCT, List.of(nullable, text("bb")), DataType.BOOLEAN, false);
        assertEquals(0b001, CodeMasks.mask(call(Op.AND, distinct, call(Op.NOT, like(nullable, "%x%"))), d)[0],
                "IS DISTINCT FROM per code; NULL: TRUE AND NULL, not TRUE");
        assertTrue(CodeMasks.nullWhereColumnIs(call(Op.AND, distinct, call(Op.NOT, like(nullable, "%x%")))),
                "TRUE AND NULL is NULL");
        Expr upper = new Expr.Call(Op.FUNCTION, List.of(COL, text("x")), DataType.VARCHAR, false, TextFunction.REPLACE);
        assertNull(CodeMasks.column(call(Op.EQ, upper, text("y"))), "a function the host has no code for here");
    }
}
