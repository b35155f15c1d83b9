package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Order keys of lists: their string order is DuckDB's order of the lists, and each gives its list back. */
class ListOrderTest {

    private static String list(Object... raw) {
        return ListCodec.encode(Arrays.asList(raw));
    }

    /** Asserts that the lists, given in ascending order, have keys in strictly ascending order that decode back. */
    private static void ascending(DataType element, String... lists) {
        List<String> keys = new ArrayList<>();
        for (String l : lists) {
            String key = ListOrder.key(l, DataType.list(element));
            assertEquals(l, ListOrder.value(key, DataType.list(element)));
            keys.add(key);
        }
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(CodePointOrder.compare(keys.get(i - 1), keys.get(i)) < 0,
                    ListCodec.texts(lists[i - 1]) + " before " + ListCodec.texts(lists[i]));
        }
    }

    @Test
    void numbersComparedAsNumbersAPrefixFirstANullElementLast() {
        ascending(DataType.BIGINT, list(), list(Long.MIN_VALUE), list(-5L), list(-1L), list(0L), list(1L),
                list(1L, 2L), list(1L, null), list(9L), list(10L), list(Long.MAX_VALUE), list((Object) null),
                list(null, 1L));
    }

    @Test
    void doublesInDoubleCompareOrder() {
        ascending(DataType.DOUBLE, list(Double.NEGATIVE_INFINITY), list(-2.5), list(-0.0 + 0.0), list(Double.MIN_VALUE),
                list(1.5), list(1.5, -2.0), list(10.0), list(Double.POSITIVE_INFINITY), list(Double.NaN));
        assertEquals(ListOrder.key(list(-0.0), DataType.list(DataType.DOUBLE)),
                ListOrder.key(list(0.0), DataType.list(DataType.DOUBLE)));
    }

    @Test
    void stringsInCodePointOrderWhateverCharactersTheyHold() {
        ascending(DataType.VARCHAR, list(), list(""), list("", ""), list("\u0000"), list("\u0000", "a"),
                list("\u0001"), list("\u0002"), list("B"), list("a"), list("a", ""), list("a", "b"), list("a", null),
                list("a\u0000"), list("a\u0001b"), list("ab"), list("é"), list("\uD83D\uDE00"), list((Object) null));
    }

    @Test
    void booleansFalseFirst() {
        ascending(DataType.BOOLEAN, list(false), list(false, true), list(true), list(true, false),
                list((Object) null));
    }

    /** DuckDB's order of these lists of lists of intervals: each interval by its length, 1 month as 30 days. */
    @Test
    void intervalsInsideOrderedByLengthButNotGivenBack() {
        DataType lists = DataType.list(DataType.list(DataType.INTERVAL));
        String day = new Interval(0, 1, 0).encode();
        String hour = new Interval(0, 0, Interval.MICROS_PER_HOUR).encode();
        String[] ascending = {list(), list(list()), list(list(day)), list(list(day, hour)),
                list(list(new Interval(0, 0, 25 * Interval.MICROS_PER_HOUR).encode())),
                list(list(new Interval(0, 29, 0).encode())), list(list(new Interval(1, 0, 0).encode())),
                list((Object) null)};
        for (int i = 1; i < ascending.length; i++) {
            String before = ListOrder.key(ascending[i - 1], lists);
            assertTrue(CodePointOrder.compare(before, ListOrder.key(ascending[i], lists)) < 0,
                    ascending[i - 1] + " before " + ascending[i]);
        }
        assertEquals(ListOrder.key(list(list(new Interval(1, 0, 0).encode())), lists),
                ListOrder.key(list(list(new Interval(0, 30, 0).encode())), lists));
        assertFalse(ListOrder.givesValues(lists));
        assertFalse(ListOrder.givesValues(DataType.INTERVAL));
        assertTrue(ListOrder.givesValues(DataType.list(DataType.DATE)));
    }
}
