package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The encoding of LIST values: elements taken back, counted, indexed and searched; type names parsed and shown. */
class ListCodecTest {

    @Test
    void elementsRoundTripWhateverTheyHold() {
        List<String> texts = Arrays.asList("a:b", null, "", "12:x", "-", "3:");
        String list = ListCodec.join(texts.toArray(new String[0]));
        assertEquals(texts, ListCodec.texts(list));
        assertEquals(6, ListCodec.length(list));
        assertEquals("", ListCodec.join());
        assertEquals(0, ListCodec.length(""));
    }

    @Test
    void indexesCountFromEitherEnd() {
        String list = ListCodec.encode(Arrays.asList(10L, null, 30L));
        assertEquals("10", ListCodec.textAt(list, 1));
        assertNull(ListCodec.textAt(list, 2));
        assertEquals("30", ListCodec.textAt(list, -1));
        assertEquals("10", ListCodec.textAt(list, -3));
        assertNull(ListCodec.textAt(list, 0));
        assertNull(ListCodec.textAt(list, 4));
        assertNull(ListCodec.textAt(list, -4));
    }

    @Test
    void searchMatchesWholeElementsOnly() {
        String list = ListCodec.encode(Arrays.asList("ab", null, "c"));
        assertTrue(ListCodec.contains(list, "ab"));
        assertTrue(ListCodec.contains(list, "c"));
        assertFalse(ListCodec.contains(list, "a"));
        assertFalse(ListCodec.contains(list, "-"));
    }

    @Test
    void oneEncodingPerList() {
        assertEquals(ListCodec.encode(List.of(0.0d)), ListCodec.encode(List.of(-0.0d)));
        assertEquals(ListCodec.encode(List.of(1L, 2L)), ListCodec.encode(List.of(1, 2)));
    }

    @Test
    void resultValuesEncodeBackToTheSameList() {
        DataType t = DataType.list(DataType.DATE);
        String list = ListCodec.encode(Arrays.asList(18262L, null));
        ListValue v = ListCodec.value(list, t.element(), java.time.ZoneOffset.UTC);
        assertEquals(Arrays.asList(LocalDate.parse("2020-01-01"), null), v.values());
        assertEquals("[2020-01-01, NULL]", v.toString());
        assertEquals(list, ListCodec.encode(v));
    }

    @Test
    void typeNamesAsDuckDbWritesThem() {
        assertEquals(DataType.list(DataType.INTEGER), DataType.parse("INTEGER[]"));
        assertEquals(DataType.list(DataType.VARCHAR), DataType.parse("varchar list"));
        assertEquals("DECIMAL(6,2)[]", DataType.list(DataType.decimal(6, 2)).toString());
        assertTrue(DataType.list(DataType.INTEGER).isList());
        assertFalse(DataType.list(DataType.INTEGER).isText());
        assertEquals(DataType.list(DataType.list(DataType.INTEGER)), DataType.parse("INTEGER[][]"));
        assertEquals("VARCHAR[][][]", DataType.parse("VARCHAR[][][]").toString());
        assertEquals("STRUCT(a BIGINT[][])[][]", DataType.parse("STRUCT(a BIGINT[][])[][]").toString());
        assertThrows(IllegalArgumentException.class, () -> DataType.parse("INTEGER[][x]"));
    }

    @Test
    void aListOfListsHoldsEachInnerListAsAnElement() {
        DataType t = DataType.list(DataType.list(DataType.INTEGER));
        String inner = ListCodec.encode(Arrays.asList(1L, null));
        String list = ListCodec.join(inner, null, "");
        ListValue v = ListCodec.value(list, t.element(), java.time.ZoneOffset.UTC);
        assertEquals("[[1, NULL], NULL, []]", v.toString());
        assertEquals(3, ListCodec.length(list));
        assertEquals(inner, ListCodec.textAt(list, 1));
        assertEquals(list, ListCodec.encode(v));
    }
}
