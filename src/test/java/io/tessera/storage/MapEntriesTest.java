package io.tessera.storage;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MAP types and values as Tessera holds them: a LIST of STRUCT(key, value) marked as a map. */
class MapEntriesTest {

    private static final DataType MAP = DataType.map(DataType.VARCHAR, DataType.INTEGER);

    @Test
    void aMapTypeIsAListOfKeyValueStructsWithItsOwnText() {
        assertTrue(MAP.isMap());
        assertTrue(MAP.isList());
        assertEquals("STRUCT(\"key\" VARCHAR, \"value\" INTEGER)", MAP.element().toString());
        assertEquals("MAP(VARCHAR, INTEGER)", MAP.toString());
        assertFalse(DataType.list(MAP.element()).isMap());
        assertFalse(DataType.list(MAP.element()).equals(MAP));
        for (String text : List.of("MAP(VARCHAR, INTEGER)", "MAP(DECIMAL(2,1), INTEGER[])[]",
                "MAP(INTEGER[], MAP(VARCHAR, STRUCT(a DATE)))", "STRUCT(\"key\" MAP(VARCHAR, DOUBLE))")) {
            assertEquals(text, DataType.parse(text).toString());
        }
        assertThrows(IllegalArgumentException.class, () -> DataType.parse("MAP(VARCHAR)"));
    }

    @Test
    void keysAreCheckedWhereAMapIsMade() {
        String map = MapEntries.of(List.of("b", "a"), Arrays.asList("2", null), MAP);
        assertEquals("{b=2, a=NULL}", MapEntries.value(map, MAP, java.time.ZoneOffset.UTC).toString());
        assertEquals(map, MapEntries.encode(MapEntries.value(map, MAP, java.time.ZoneOffset.UTC)));
        assertEquals(MapEntries.DUPLICATE_KEY, assertThrows(IllegalArgumentException.class,
                () -> MapEntries.of(List.of("a", "a"), List.of("1", "2"), MAP)).getMessage());
        assertEquals(MapEntries.NULL_KEY, assertThrows(IllegalArgumentException.class,
                () -> MapEntries.of(Arrays.asList("a", null), List.of("1", "2"), MAP)).getMessage());
        // intervals equal by their length: 1 day and 24 hours are one key, as DuckDB finds them
        DataType byInterval = DataType.map(DataType.INTERVAL, DataType.INTEGER);
        String day = IntervalText.parse("1 day").encode();
        String hours = IntervalText.parse("24 hours").encode();
        assertThrows(IllegalArgumentException.class,
                () -> MapEntries.of(List.of(day, hours), List.of("1", "2"), byInterval));
    }

    @Test
    void duckDbsTextOfAMapIsRead() {
        assertEquals("{a=1, b c=NULL}", MapEntries.value(NestedText.parse(" { a = 1 , 'b c' = NULL } ", MAP), MAP,
                java.time.ZoneOffset.UTC).toString());
        assertEquals("", NestedText.parse("{}", MAP));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NestedText.parse("{a=1, a=2}", MAP))
                .getMessage().contains(MapEntries.DUPLICATE_KEY));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NestedText.parse("{NULL=1}", MAP))
                .getMessage().contains("character 2: " + MapEntries.NULL_KEY));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> NestedText.parse("{a:1}", MAP))
                .getMessage().contains("expected '=' after the key"));
    }
}
