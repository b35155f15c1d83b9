package io.tessera.bench;

import io.tessera.storage.ColumnBuilder;
import io.tessera.storage.Database;
import io.tessera.storage.RowBatch;
import io.tessera.storage.TableSchema;
import io.tessera.storage.TableWriter;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.TextStyle;
import java.time.temporal.IsoFields;
import java.util.Locale;
import java.util.Random;

/**
 * A tiny SSB-shaped database (the five tables and their columns, with the domains the 13 queries filter on) for
 * testing the benchmark plumbing before the real generator is available. Not a conforming SSB generator.
 */
public final class TinySsb {

    static final String[] NATIONS = {"ALGERIA", "ARGENTINA", "BRAZIL", "CANADA", "EGYPT", "ETHIOPIA", "FRANCE",
            "GERMANY", "INDIA", "INDONESIA", "IRAN", "IRAQ", "JAPAN", "JORDAN", "KENYA", "MOROCCO", "MOZAMBIQUE", "PERU",
            "CHINA", "ROMANIA", "SAUDI ARABIA", "VIETNAM", "RUSSIA", "UNITED KINGDOM", "UNITED STATES"};
    static final String[] REGION_OF = {"AFRICA", "AMERICA", "AMERICA", "AMERICA", "MIDDLE EAST", "AFRICA", "EUROPE",
            "EUROPE", "ASIA", "ASIA", "MIDDLE EAST", "MIDDLE EAST", "ASIA", "MIDDLE EAST", "AFRICA", "AFRICA", "AFRICA",
            "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST", "ASIA", "EUROPE", "EUROPE", "AMERICA"};

    private TinySsb() {
    }

    public static void build(Path dir, long seed, int lineorders) {
        Random r = new Random(seed);
        try (Database db = Database.openOrCreate(dir)) {
            int customers = 300;
            int suppliers = 40;
            int parts = 400;
            TableSchema ds = TableSchema.parse("ddate", "d_datekey INTEGER NOT NULL, d_date VARCHAR NOT NULL, "
                    + "d_dayofweek VARCHAR NOT NULL, d_month VARCHAR NOT NULL, d_year INTEGER NOT NULL, "
                    + "d_yearmonthnum INTEGER NOT NULL, d_yearmonth VARCHAR NOT NULL, d_daynuminweek INTEGER NOT NULL, "
                    + "d_daynuminmonth INTEGER NOT NULL, d_daynuminyear INTEGER NOT NULL, "
                    + "d_monthnuminyear INTEGER NOT NULL, d_weeknuminyear INTEGER NOT NULL, "
                    + "d_sellingseason VARCHAR NOT NULL, d_lastdayinweekfl BOOLEAN NOT NULL, "
                    + "d_lastdayinmonthfl BOOLEAN NOT NULL, d_holidayfl BOOLEAN NOT NULL, d_weekdayfl BOOLEAN NOT NULL");
            RowBatch b = new RowBatch(ds, 2600);
            for (LocalDate d = LocalDate.of(1992, 1, 1); d.getYear() < 1999; d = d.plusDays(1)) {
                String month = d.getMonth().getDisplayName(TextStyle.FULL, Locale.ROOT);
                int c = 0;
                b.column(c++).appendInt(d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth());
                b.column(c++).appendString(d.toString());
                b.column(c++).appendString(d.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ROOT));
                b.column(c++).appendString(month);
                b.column(c++).appendInt(d.getYear());
                b.column(c++).appendInt(d.getYear() * 100 + d.getMonthValue());
                b.column(c++).appendString(month.substring(0, 3) + d.getYear());
                b.column(c++).appendInt(d.getDayOfWeek().getValue());
                b.column(c++).appendInt(d.getDayOfMonth());
                b.column(c++).appendInt(d.getDayOfYear());
                b.column(c++).appendInt(d.getMonthValue());
                b.column(c++).appendInt(Math.min(53, d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR)));
                b.column(c++).appendString(new String[]{"Winter", "Spring", "Summer", "Fall", "Christmas"}[
                        Math.min(4, (d.getMonthValue() - 1) / 3 + (d.getMonthValue() == 12 ? 1 : 0))]);
                b.column(c++).appendBoolean(d.getDayOfWeek().getValue() == 7);
                b.column(c++).appendBoolean(d.plusDays(1).getDayOfMonth() == 1);
                b.column(c++).appendBoolean(r.nextInt(30) == 0);
                b.column(c).appendBoolean(d.getDayOfWeek().getValue() <= 5);
            }
            write(db, b);

            TableSchema cs = TableSchema.parse("customer", "c_custkey INTEGER NOT NULL, c_name VARCHAR NOT NULL, "
                    + "c_address VARCHAR NOT NULL, c_city VARCHAR NOT NULL, c_nation VARCHAR NOT NULL, "
                    + "c_region VARCHAR NOT NULL, c_phone VARCHAR NOT NULL, c_mktsegment VARCHAR NOT NULL");
            b = new RowBatch(cs, customers);
            for (int i = 1; i <= customers; i++) {
                int n = r.nextInt(NATIONS.length);
                b.column(0).appendInt(i);
                b.column(1).appendString(String.format("Customer#%09d", i));
                b.column(2).appendString("addr" + r.nextInt(1000));
                b.column(3).appendString(city(n, r));
                b.column(4).appendString(NATIONS[n]);
                b.column(5).appendString(REGION_OF[n]);
                b.column(6).appendString(String.format("%02d-%03d", 10 + n, r.nextInt(1000)));
                b.column(7).appendString(new String[]{"AUTOMOBILE", "BUILDING", "FURNITURE", "HOUSEHOLD",
                        "MACHINERY"}[r.nextInt(5)]);
            }
            write(db, b);

            TableSchema ss = TableSchema.parse("supplier", "s_suppkey INTEGER NOT NULL, s_name VARCHAR NOT NULL, "
                    + "s_address VARCHAR NOT NULL, s_city VARCHAR NOT NULL, s_nation VARCHAR NOT NULL, "
                    + "s_region VARCHAR NOT NULL, s_phone VARCHAR NOT NULL");
            b = new RowBatch(ss, suppliers);
            for (int i = 1; i <= suppliers; i++) {
                int n = r.nextInt(NATIONS.length);
                b.column(0).appendInt(i);
                b.column(1).appendString(String.format("Supplier#%09d", i));
                b.column(2).appendString("addr" + r.nextInt(1000));
                b.column(3).appendString(city(n, r));
                b.column(4).appendString(NATIONS[n]);
                b.column(5).appendString(REGION_OF[n]);
                b.column(6).appendString(String.format("%02d-%03d", 10 + n, r.nextInt(1000)));
            }
            write(db, b);

            TableSchema ps = TableSchema.parse("part", "p_partkey INTEGER NOT NULL, p_name VARCHAR NOT NULL, "
                    + "p_mfgr VARCHAR NOT NULL, p_category VARCHAR NOT NULL, p_brand1 VARCHAR NOT NULL, "
                    + "p_color VARCHAR NOT NULL, p_type VARCHAR NOT NULL, p_size INTEGER NOT NULL, "
                    + "p_container VARCHAR NOT NULL");
            b = new RowBatch(ps, parts);
            for (int i = 1; i <= parts; i++) {
                int m = 1 + r.nextInt(5);
                int cat = 1 + r.nextInt(5);
                b.column(0).appendInt(i);
                b.column(1).appendString("part " + i);
                b.column(2).appendString("MFGR#" + m);
                b.column(3).appendString("MFGR#" + m + cat);
                b.column(4).appendString(String.format("MFGR#%d%d%02d", m, cat, 1 + r.nextInt(40)));
                b.column(5).appendString(new String[]{"red", "green", "blue"}[r.nextInt(3)]);
                b.column(6).appendString(new String[]{"STANDARD BRUSHED TIN", "PROMO PLATED STEEL"}[r.nextInt(2)]);
                b.column(7).appendInt(1 + r.nextInt(50));
                b.column(8).appendString(new String[]{"SM CASE", "LG BOX", "MED BAG"}[r.nextInt(3)]);
            }
            write(db, b);

            TableSchema ls = TableSchema.parse("lineorder", "lo_orderkey INTEGER NOT NULL, "
                    + "lo_linenumber INTEGER NOT NULL, lo_custkey INTEGER NOT NULL, lo_partkey INTEGER NOT NULL, "
                    + "lo_suppkey INTEGER NOT NULL, lo_orderdate INTEGER NOT NULL, lo_orderpriority VARCHAR NOT NULL, "
                    + "lo_shippriority INTEGER NOT NULL, lo_quantity INTEGER NOT NULL, "
                    + "lo_extendedprice INTEGER NOT NULL, lo_ordtotalprice INTEGER NOT NULL, "
                    + "lo_discount INTEGER NOT NULL, lo_revenue INTEGER NOT NULL, lo_supplycost INTEGER NOT NULL, "
                    + "lo_tax INTEGER NOT NULL, lo_commitdate INTEGER NOT NULL, lo_shipmode VARCHAR NOT NULL");
            b = new RowBatch(ls, lineorders);
            LocalDate first = LocalDate.of(1992, 1, 1);
            for (int i = 0; i < lineorders; i++) {
                LocalDate od = first.plusDays(r.nextInt(2405));
                LocalDate cd = od.plusDays(30 + r.nextInt(61));
                int qty = 1 + r.nextInt(50);
                int price = 90000 + r.nextInt(20000);
                int disc = r.nextInt(11);
                int c = 0;
                b.column(c++).appendInt(1 + i / 4);
                b.column(c++).appendInt(1 + i % 4);
                b.column(c++).appendInt(1 + r.nextInt(customers));
                b.column(c++).appendInt(1 + r.nextInt(parts));
                b.column(c++).appendInt(1 + r.nextInt(suppliers));
                b.column(c++).appendInt(od.getYear() * 10000 + od.getMonthValue() * 100 + od.getDayOfMonth());
                b.column(c++).appendString(new String[]{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECI", "5-LOW"}[
                        r.nextInt(5)]);
                b.column(c++).appendInt(0);
                b.column(c++).appendInt(qty);
                b.column(c++).appendInt(qty * price);
                b.column(c++).appendInt(qty * price);
                b.column(c++).appendInt(disc);
                b.column(c++).appendInt(qty * price * (100 - disc) / 100);
                b.column(c++).appendInt(6 * price / 10);
                b.column(c++).appendInt(r.nextInt(9));
                b.column(c++).appendInt(cd.getYear() * 10000 + cd.getMonthValue() * 100 + cd.getDayOfMonth());
                b.column(c).appendString(new String[]{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}[
                        r.nextInt(7)]);
            }
            write(db, b);
        }
    }

    private static String city(int nation, Random r) {
        String n = NATIONS[nation];
        String nine = n.length() >= 9 ? n.substring(0, 9) : (n + "         ").substring(0, 9);
        return nine + r.nextInt(10);
    }

    private static void write(Database db, RowBatch b) {
        for (int i = 0; i < b.columnCount(); i++) {
            ColumnBuilder c = b.column(i);
            if (c.size() != b.rowCount()) {
                throw new IllegalStateException("column " + i + " of " + b.schema().name() + " is short");
            }
        }
        try (TableWriter w = db.replace(b.schema())) {
            w.write(b);
            w.commit();
        }
    }
}
