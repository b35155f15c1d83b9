package io.tessera.backend.jvm.lib;

import io.tessera.sql.SqlError;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The string and date helpers of generated code, against answers DuckDB 2.0 gave for the same calls. */
class TextRuntimeTest {

    /** substring('hello', start, length) for start and length from -7 to 7, as "start,length=result" (DuckDB's). */
    private static final String SUBSTRING_GRID = "-7,-7= -7,-6= -7,-3= -7,-1= -7,0= -7,1= -7,2= -7,3=h -7,7=hello -6,-7= -6,-6= -6,-3= -6,-1= -6,0= -6,1= -6,2=h -6,3=he -6,7=hello -5,-7= -5,-6= -5,-3= -5,-1= -5,0= -5,1=h -5,2=he -5,3=hel -5,7=hello -4,-7=h -4,-6=h -4,-3=h -4,-1=h -4,0= -4,1=e -4,2=el -4,3=ell -4,7=ello -3,-7=he -3,-6=he -3,-3=he -3,-1=e -3,0= -3,1=l -3,2=ll -3,3=llo -3,7=llo -1,-7=hell -1,-6=hell -1,-3=ell -1,-1=l -1,0= -1,1=o -1,2=o -1,3=o -1,7=o 0,-7= 0,-6= 0,-3= 0,-1= 0,0= 0,1= 0,2=h 0,3=he 0,7=hello 1,-7= 1,-6= 1,-3= 1,-1= 1,0= 1,1=h 1,2=he 1,3=hel 1,7=hello 3,-7=he 3,-6=he 3,-3=he 3,-1=e 3,0= 3,1=l 3,2=ll 3,3=llo 3,7=llo 5,-7=hell 5,-6=hell 5,-3=ell 5,-1=l 5,0= 5,1=o 5,2=o 5,3=o 5,7=o 6,-7=hello 6,-6=hello 6,-3=llo 6,-1=o 6,0= 6,1= 6,2= 6,3= 6,7= 7,-7=hello 7,-6=hello 7,-3=lo 7,-1= 7,0= 7,1= 7,2= 7,3= 7,7=";

    @Test
    void substringFollowsDuckDbForEveryStartAndLength() {
        for (String cell : SUBSTRING_GRID.split(" ")) {
            String[] kv = cell.split("=", -1);
            String[] sl = kv[0].split(",");
            assertEquals(kv[1], TextRuntime.substring("hello", Long.parseLong(sl[0]), Long.parseLong(sl[1])), cell);
        }
    }

    @Test
    void substringCountsCodePoints() {
        assertEquals("😀", TextRuntime.substring("a😀b", 2, 1));
        assertEquals("b😀c", TextRuntime.substring("a😀b😀c", 3));
        assertEquals("😀c", TextRuntime.substring("a😀b😀c", -2));
        assertEquals("", TextRuntime.substring("", 1, 5));
        assertThrows(SqlError.class, () -> TextRuntime.substring("x", 4_294_967_296L, 1));
        assertThrows(SqlError.class, () -> TextRuntime.substring("x", 1, -4_294_967_296L));
    }

    @Test
    void lengthsAndPositions() {
        assertEquals(3, TextRuntime.length("a😀b"));
        assertEquals(6, TextRuntime.octetLength("a😀b"));
        assertEquals(2, TextRuntime.position("a😀b😀", "😀"));
        assertEquals(4, TextRuntime.position("a😀b😀c", "😀c"));
        assertEquals(1, TextRuntime.position("abc", ""));
        assertEquals(0, TextRuntime.position("abc", "d"));
    }

    @Test
    void trimPadLeftRight() {
        assertEquals("abc", TextRuntime.trim("xxabcxx", "x", 3));
        assertEquals("abcxx", TextRuntime.trim("xxabcxx", "x", 1));
        assertEquals("xxabc", TextRuntime.trim("xxabcxx", "x", 2));
        assertEquals("文字符", TextRuntime.trim("中文字符串", "中串", 3));
        assertEquals("😀😀x", TextRuntime.pad("x", 3, "😀", true));
        assertEquals("x😀é😀", TextRuntime.pad("x", 4, "😀é", false));
        assertEquals("hé", TextRuntime.pad("héllo", 2, "*", true));
        assertEquals("", TextRuntime.pad("abc", -1, "*", true));
        assertThrows(SqlError.class, () -> TextRuntime.pad("x", 3, "", true));
        assertEquals("abc", TextRuntime.pad("abc", 3, "", true)); // nothing to pad: the empty pad is not needed
        assertEquals("😀😀", TextRuntime.left("😀😀😀", 2));
        assertEquals("😀", TextRuntime.left("😀😀😀", -2));
        assertEquals("llo", TextRuntime.right("héllo", 3));
        assertEquals("llo", TextRuntime.right("héllo", -2));
        assertEquals("", TextRuntime.right("abc", -100));
    }

    @Test
    void replaceRepeatConcatCase() {
        assertEquals("abc", TextRuntime.replace("abc", "", "z"));
        assertEquals("bbbbbb", TextRuntime.replace("aaa", "a", "bb"));
        assertEquals("ababab", TextRuntime.repeat("ab", 3));
        assertEquals("", TextRuntime.repeat("ab", -1));
        assertEquals("a-b-c", TextRuntime.concatWs("-", "a", null, "b", "c"));
        assertEquals("", TextRuntime.concatWs("", (String) null));
        assertEquals("STRAẞE", TextRuntime.upper("straße"));
        assertEquals("i", TextRuntime.lower("İ"));
    }

    @Test
    void regularExpressions() {
        Pattern p = TextRuntime.pattern("(?s)(\\w+) (\\w+)");
        assertEquals("world hello!", TextRuntime.regexpReplace(p, "hello world!", "\\2 \\1", false));
        Pattern x = TextRuntime.pattern("(?s)x*");
        assertEquals("-a-b-c-", TextRuntime.regexpReplace(x, "abc", "-", true));
        assertEquals("-abc", TextRuntime.regexpReplace(x, "abc", "-", false));
        assertEquals("a\\b", TextRuntime.regexpReplace(TextRuntime.pattern("-"), "a-b", "\\\\", true));
        assertThrows(SqlError.class, () -> TextRuntime.regexpReplace(p, "a b", "\\3", false));
        assertTrue(TextRuntime.matchesPart(TextRuntime.pattern("(?s)l+"), "hello"));
        assertFalse(TextRuntime.matchesWhole(TextRuntime.pattern("(?s)l+"), "hello"));
        assertTrue(TextRuntime.like("Hello", "h%", "", true));
        assertFalse(TextRuntime.like("Hello", "h%", "", false));
        assertTrue(TextRuntime.like("a%b", "a!%b", "!", false));
        assertFalse(TextRuntime.like("axb", "a!%b", "!", false));
        assertTrue(TextRuntime.like("😀", "_", "", false));
    }

    @Test
    void doublesAsDuckDbWritesThem() {
        assertEquals("1e+20", TextRuntime.doubleText(1e20));
        assertEquals("1.5e-07", TextRuntime.doubleText(1.5e-7));
        assertEquals("1e+16", TextRuntime.doubleText(1e16));
        assertEquals("1000000000000000.0", TextRuntime.doubleText(1e15));
        assertEquals("0.0001", TextRuntime.doubleText(0.0001));
        assertEquals("1e-05", TextRuntime.doubleText(0.00001));
        assertEquals("-123456.789", TextRuntime.doubleText(-123456.789));
        assertEquals("-0.0", TextRuntime.doubleText(-0.0));
        assertEquals("nan", TextRuntime.doubleText(Double.NaN));
        assertEquals("-inf", TextRuntime.doubleText(Double.NEGATIVE_INFINITY));
    }

    private static int day(String iso) {
        return (int) LocalDate.parse(iso).toEpochDay();
    }

    @Test
    void datePartsAndTruncation() {
        assertEquals(0, TextRuntime.datePart("DOW", day("2024-06-30"))); // a Sunday
        assertEquals(7, TextRuntime.datePart("ISODOW", day("2024-06-30")));
        assertEquals(53, TextRuntime.datePart("WEEK", day("2021-01-01")));
        assertEquals(2020, TextRuntime.datePart("ISOYEAR", day("2021-01-01")));
        assertEquals(202053, TextRuntime.datePart("YEARWEEK", day("2021-01-01")));
        assertEquals(20, TextRuntime.datePart("CENTURY", day("2000-12-31")));
        assertEquals(21, TextRuntime.datePart("CENTURY", day("2001-01-01")));
        assertEquals(2, TextRuntime.datePart("MILLENNIUM", day("2000-12-31")));
        assertEquals(199, TextRuntime.datePart("DECADE", day("1999-12-31")));
        assertEquals(day("2024-06-24"), TextRuntime.dateTrunc("WEEK", day("2024-06-30")));
        assertEquals(day("1990-01-01"), TextRuntime.dateTrunc("DECADE", day("1999-12-31")));
        assertEquals(day("2000-01-01"), TextRuntime.dateTrunc("CENTURY", day("2099-05-05")));
        assertEquals(day("1996-01-01"), TextRuntime.dateTrunc("QUARTER", day("1996-02-29")));
    }
}
