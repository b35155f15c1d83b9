package io.tessera.variant;

import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.nio.file.Path;
import java.util.Random;

/**
 * A small star schema whose plans have the shapes the variant dimensions depend on: a fact table with integer,
 * BIGINT, DOUBLE, nullable and string columns; dimensions with small integer keys (perfect tables), one with
 * BIGINT keys spread over a range too wide for a perfect table.
 */
final class VariantTestData {

    private VariantTestData() {
    }

    static void build(Path dir) {
        Random r = new Random(5);
        try (Database db = Database.openOrCreate(dir)) {
            write(db, "fact", "f_id INTEGER NOT NULL, f_a INTEGER NOT NULL, f_b INTEGER NOT NULL, f_g BIGINT NOT NULL, "
                    + "f_x DOUBLE NOT NULL, f_v INTEGER, f_s VARCHAR NOT NULL", 2000, (b, i) -> {
                        b.column(0).appendInt(i);
                        b.column(1).appendInt(r.nextInt(20));
                        b.column(2).appendInt(r.nextInt(50));
                        b.column(3).appendLong(r.nextInt(30) * 10_000_000L);
                        b.column(4).appendDouble(r.nextInt(1000) / 8.0);
                        if (i % 7 == 0) {
                            b.column(5).appendNull();
                        } else {
                            b.column(5).appendInt(r.nextInt(100));
                        }
                        b.column(6).appendString("s" + r.nextInt(12));
                    });
            write(db, "da", "a_id INTEGER NOT NULL, a_name VARCHAR NOT NULL, a_grp INTEGER NOT NULL", 20, (b, i) -> {
                b.column(0).appendInt(i);
                b.column(1).appendString("a" + i);
                b.column(2).appendInt(i % 5);
            });
            write(db, "db", "b_id INTEGER NOT NULL, b_name VARCHAR NOT NULL, b_grp INTEGER NOT NULL", 50, (b, i) -> {
                b.column(0).appendInt(i);
                b.column(1).appendString("b" + i);
                b.column(2).appendInt(i % 10);
            });
            write(db, "dg", "g_id BIGINT NOT NULL, g_v INTEGER NOT NULL", 30, (b, i) -> {
                b.column(0).appendLong(i * 10_000_000L);
                b.column(1).appendInt(i);
            });
        }
    }

    private interface Row {
        void fill(RowBatch b, int i);
    }

    private static void write(Database db, String name, String columns, int rows, Row row) {
        TableSchema schema = TableSchema.parse(name, columns);
        RowBatch batch = new RowBatch(schema, rows);
        for (int i = 0; i < rows; i++) {
            row.fill(batch, i);
        }
        try (TableWriter w = db.replace(schema)) {
            w.write(batch);
            w.commit();
        }
    }
}
