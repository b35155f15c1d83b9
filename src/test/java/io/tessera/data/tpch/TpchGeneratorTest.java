package io.tessera.data.tpch;

import io.tessera.data.Progress;
import io.tessera.storage.Column;
import io.tessera.storage.DataType;
import io.tessera.storage.Database;
import io.tessera.storage.Table;
import io.trino.tpch.Customer;
import io.trino.tpch.GenerateUtils;
import io.trino.tpch.LineItem;
import io.trino.tpch.Order;
import io.trino.tpch.Part;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpchGeneratorTest {

    static final double SF = 0.01;

    @TempDir
    static Path tmp;
    static Database db;
    static Map<String, Long> rows;
    static TpchGenerator generator;

    @BeforeAll
    static void generate() {
        db = Database.openOrCreate(tmp);
        // small parts, so every large table is generated in several parts on several threads
        generator = new TpchGenerator(SF, 7_000);
        rows = generator.generate(db, Progress.silent(), 3);
    }

    @AfterAll
    static void close() {
        db.close();
    }

    @Test
    void rowCountsOfAllEightTables() {
        assertEquals(8, db.tables().size());
        assertEquals(1_500, db.table("customer").rowCount());
        assertEquals(15_000, db.table("orders").rowCount());
        assertEquals(2_000, db.table("part").rowCount());
        assertEquals(8_000, db.table("partsupp").rowCount());
        assertEquals(100, db.table("supplier").rowCount());
        assertEquals(25, db.table("nation").rowCount());
        assertEquals(5, db.table("region").rowCount());
        long lines = 0;
        for (LineItem ignored : TpchTable.LINE_ITEM.createGenerator(SF, 1, 1)) {
            lines++;
        }
        assertEquals(lines, db.table("lineitem").rowCount());
        assertEquals(60_175, lines, "the reference dbgen's lineitem count at SF 0.01");
        assertEquals(lines, rows.get("lineitem"));
    }

    @Test
    void typesFollowTheMapping() {
        assertEquals(DataType.BIGINT, db.table("lineitem").column("l_orderkey").type());
        assertEquals(DataType.BIGINT, db.table("orders").column("o_orderkey").type());
        assertEquals(DataType.INTEGER, db.table("lineitem").column("l_partkey").type());
        assertEquals(DataType.INTEGER, db.table("lineitem").column("l_linenumber").type());
        assertEquals(DataType.decimal(15, 2), db.table("lineitem").column("l_quantity").type());
        assertEquals(DataType.decimal(15, 2), db.table("lineitem").column("l_discount").type());
        assertEquals(DataType.decimal(15, 2), db.table("orders").column("o_totalprice").type());
        assertEquals(DataType.DATE, db.table("lineitem").column("l_shipdate").type());
        assertEquals(DataType.VARCHAR, db.table("nation").column("n_name").type());
        assertEquals(DataType.INTEGER, db.table("nation").column("n_regionkey").type());
    }

    @Test
    void valuesMatchTheLibraryRowByRow() {
        Table li = db.table("lineitem");
        long r = 0;
        for (LineItem e : TpchTable.LINE_ITEM.createGenerator(SF, 1, 1)) {
            assertEquals(e.getOrderKey(), li.column("l_orderkey").getLong(r));
            assertEquals(e.getPartKey(), li.column("l_partkey").getInt(r));
            assertEquals(e.getQuantity() * 100, li.column("l_quantity").getLong(r));
            assertEquals(e.getExtendedPriceInCents(), li.column("l_extendedprice").getLong(r));
            assertEquals(e.getDiscountPercent(), li.column("l_discount").getLong(r));
            assertEquals(e.getTaxPercent(), li.column("l_tax").getLong(r));
            assertEquals(LocalDate.parse(GenerateUtils.formatDate(e.getShipDate())), li.column("l_shipdate").getObject(r));
            assertEquals(LocalDate.parse(GenerateUtils.formatDate(e.getReceiptDate())),
                    li.column("l_receiptdate").getObject(r));
            assertEquals(e.getShipMode(), li.column("l_shipmode").getString(r));
            assertEquals(e.getComment(), li.column("l_comment").getString(r));
            r++;
        }
        Table o = db.table("orders");
        r = 0;
        for (Order e : TpchTable.ORDERS.createGenerator(SF, 1, 1)) {
            assertEquals(e.getOrderKey(), o.column("o_orderkey").getLong(r));
            assertEquals(e.getCustomerKey(), o.column("o_custkey").getInt(r));
            assertEquals(e.getTotalPriceInCents(), o.column("o_totalprice").getLong(r));
            assertEquals(String.valueOf(e.getOrderStatus()), o.column("o_orderstatus").getString(r));
            assertEquals(e.getClerk(), o.column("o_clerk").getString(r));
            r++;
        }
        Table c = db.table("customer");
        r = 0;
        for (Customer e : TpchTable.CUSTOMER.createGenerator(SF, 1, 1)) {
            assertEquals(e.getAccountBalanceInCents(), c.column("c_acctbal").getLong(r));
            assertEquals(e.getName(), c.column("c_name").getString(r));
            r++;
        }
        Table p = db.table("part");
        r = 0;
        for (Part e : TpchTable.PART.createGenerator(SF, 1, 1)) {
            assertEquals(new BigDecimal(e.getRetailPriceInCents()).movePointLeft(2), p.column("p_retailprice").getObject(r));
            r++;
        }
        // a few fixed values of the reference data
        assertEquals("ALGERIA", db.table("nation").column("n_name").getString(0));
        assertEquals("MIDDLE EAST", db.table("region").column("r_name").getString(4));
        assertEquals(1L, li.column("l_orderkey").getLong(0));
        assertEquals(LocalDate.of(1996, 3, 13), li.column("l_shipdate").getObject(0));
        assertEquals(new BigDecimal("24710.35"), li.column("l_extendedprice").getObject(0));
    }

    @Test
    void everyColumnOfEveryTableMatchesTheLibrary() {
        for (TpchTable<?> t : TpchTable.getTables()) {
            compare(t);
        }
    }

    private static <E extends TpchEntity> void compare(TpchTable<E> t) {
        Table stored = db.table(t.getTableName());
        List<TpchColumn<E>> cols = t.getColumns();
        long r = 0;
        for (E e : t.createGenerator(SF, 1, 1)) {
            for (int i = 0; i < cols.size(); i++) {
                TpchColumn<E> c = cols.get(i);
                Column s = stored.column(i);
                Object expected = switch (c.getType().getBase()) {
                    case IDENTIFIER -> s.type().equals(DataType.BIGINT) ? (Object) c.getIdentifier(e)
                            : (Object) Math.toIntExact(c.getIdentifier(e));
                    case INTEGER -> c.getInteger(e);
                    case DATE -> LocalDate.ofEpochDay(c.getDate(e));
                    case DOUBLE -> new BigDecimal(Double.toString(c.getDouble(e))).setScale(2);
                    case VARCHAR -> c.getString(e);
                };
                assertEquals(expected, s.getObject(r), t.getTableName() + "." + c.getColumnName() + " row " + r);
            }
            r++;
        }
        assertEquals(r, stored.rowCount());
        assertTrue(r > 0);
    }

    @Test
    void largeTablesWereSplitIntoParts() {
        assertEquals(9, generator.partCount(TpchTable.LINE_ITEM));
        assertEquals(3, generator.partCount(TpchTable.ORDERS));
        assertEquals(1, generator.partCount(TpchTable.NATION));
        assertEquals(30, new TpchGenerator(1).partCount(TpchTable.LINE_ITEM));
    }

    @Test
    void centsAreExact() {
        assertEquals(2471035, TpchGenerator.cents(24710.35));
        assertEquals(-99999, TpchGenerator.cents(-999.99));
        assertEquals(7, TpchGenerator.cents(0.07));
        assertEquals(999_999_999_999_99L, TpchGenerator.cents(999_999_999_999.99));
    }
}
