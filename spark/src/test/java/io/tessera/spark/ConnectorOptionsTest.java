package io.tessera.spark;

import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read's options: what each means, and a clear error for each that cannot be. */
class ConnectorOptionsTest {

    private static ConnectorOptions of(Map<String, String> m) {
        return ConnectorOptions.of(new CaseInsensitiveStringMap(m));
    }

    private static void fails(Map<String, String> m, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of(m));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void readsTheOptions() {
        ConnectorOptions o = of(Map.of("shards", "/a, /b,", "table", "t", "DEVICE", "GPU", "partitionRows", "1000",
                "shardHosts", "h1,h2"));
        assertEquals(List.of("/a", "/b"), o.shards());
        assertEquals("gpu", o.device());
        assertEquals(1000, o.partitionRows());
        assertEquals(List.of("h1", "h2"), o.shardHosts());
        ConnectorOptions d = of(Map.of("path", "/db", "table", "t"));
        assertEquals(List.of("/db"), d.shards());
        assertEquals("cpu", d.device());
        assertEquals(ConnectorOptions.DEFAULT_PARTITION_ROWS, d.partitionRows());
    }

    @Test
    void namesWhatIsWrong() {
        fails(Map.of("table", "t"), "give option path");
        fails(Map.of("path", "/a", "shards", "/b", "table", "t"), "not both");
        fails(Map.of("path", "/a"), "needs option table");
        fails(Map.of("path", "/a", "table", "t", "device", "tpu"), "cpu, gpu or auto, not 'tpu'");
        fails(Map.of("path", "/a", "table", "t", "partitionRows", "0"), "partitionRows must be positive");
        fails(Map.of("shards", "/a,/b", "table", "t", "shardHosts", "h1"), "1 hosts for 2 shards");
    }
}
