package io.tessera.backend;

import io.tessera.exec.TinyTables;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;

/**
 * Two small tables with a column of every type for the expression queries of {@link EmittedSourceHashesTest}:
 * {@code e}, every column nullable (every few rows a NULL), and {@code f}, every column NOT NULL.
 */
final class ExpressionTables {
    private ExpressionTables() {
    }

    static void write(Path dir) {
        Object[][] e = new Object[64][];
        Object[][] f = new Object[64][];
        for (int r = 0; r < e.length; r++) {
            e[r] = new Object[] {
                    r % 7 == 3 ? null : r,
                    r % 5 == 1 ? null : r * 3 + 1,
                    r % 11 == 4 ? null : 1000L * r,
                    r % 6 == 2 ? null : BigDecimal.valueOf(r * 25, 2),
                    r % 9 == 5 ? null : BigDecimal.valueOf(r * 1234, 4),
                    r % 8 == 6 ? null : r * 0.5,
                    r % 10 == 7 ? null : LocalDate.of(2020, 1, 1).plusDays(r * 9),
                    r % 4 == 0 ? null : r % 3 == 0,
                    r % 13 == 5 ? null : "v" + (r % 10)};
            f[r] = new Object[] {
                    r, r * 2 + 1, 1000L * r, BigDecimal.valueOf(r * 25, 2), BigDecimal.valueOf(r * 7, 2), r * 0.25,
                    LocalDate.of(2020, 1, 1).plusDays(r * 11), r % 3 == 0, "w" + (r % 10)};
        }
        TinyTables.write(dir, "e", "i INTEGER, j INTEGER, b BIGINT, d2 DECIMAL(12, 2), d4 DECIMAL(15, 4), x DOUBLE,"
                + " dt DATE, bo BOOLEAN, s VARCHAR", e);
        TinyTables.write(dir, "f", "a INTEGER NOT NULL, g INTEGER NOT NULL, b2 BIGINT NOT NULL, c DECIMAL(12, 2) NOT NULL,"
                + " d DECIMAL(15, 2) NOT NULL, y DOUBLE NOT NULL, fd DATE NOT NULL, fb BOOLEAN NOT NULL,"
                + " t VARCHAR NOT NULL", f);
    }
}
