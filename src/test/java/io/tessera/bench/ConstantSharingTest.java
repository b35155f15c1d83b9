package io.tessera.bench;

import io.tessera.exec.QueryEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConstantSharingTest {

    @RegisterExtension
    static final TinySsbDatabase SSB = new TinySsbDatabase(7, 3_000);

    @Test
    void otherConstantsChangeNumbersOutsideQuotesOnly() {
        assertEquals("select d_year from ddate where d_year = 1994 and lo_discount between 2 and 4 and p_brand1 = 'MFGR#2239'"
                        + " and d_date < date '1998-12-01' - interval '90' day limit 11",
                ConstantSharing.otherConstants("select d_year from ddate where d_year = 1993 and lo_discount between 1 and 3"
                        + " and p_brand1 = 'MFGR#2239' and d_date < date '1998-12-01' - interval '90' day limit 10", 1));
        assertEquals("select 'it''s 3' from t where a > 2.5 and b = x1", ConstantSharing.otherConstants(
                "select 'it''s 3' from t where a > 2.5 and b = x1", 1));
    }

    @Test
    void otherConstantsCompileNoClassAndRecompilingDoes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConstantSharing.run(new QueryEngine(SSB.db()), Queries.ssb().subList(0, 4),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        String[] classes = lines.stream().filter(l -> l.startsWith("classes")).findFirst().orElseThrow().trim().split("\\s+");
        assertTrue(Long.parseLong(classes[1]) > 0, String.join("\n", lines));
        assertEquals("0", classes[2], "queries with other constants compiled classes:\n" + String.join("\n", lines));
        assertTrue(Long.parseLong(classes[3]) >= Long.parseLong(classes[1]), String.join("\n", lines));
    }
}
