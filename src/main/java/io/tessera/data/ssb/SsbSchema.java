package io.tessera.data.ssb;

import io.tessera.storage.TableSchema;

import java.util.List;

/** The five SSB tables as Tessera stores them (the date table is {@code ddate}). */
public final class SsbSchema {

    private SsbSchema() {
    }

    public static final TableSchema LINEORDER = TableSchema.parse("lineorder", """
            lo_orderkey INTEGER NOT NULL, lo_linenumber INTEGER NOT NULL, lo_custkey INTEGER NOT NULL,
            lo_partkey INTEGER NOT NULL, lo_suppkey INTEGER NOT NULL, lo_orderdate INTEGER NOT NULL,
            lo_orderpriority VARCHAR NOT NULL, lo_shippriority INTEGER NOT NULL, lo_quantity INTEGER NOT NULL,
            lo_extendedprice INTEGER NOT NULL, lo_ordtotalprice INTEGER NOT NULL, lo_discount INTEGER NOT NULL,
            lo_revenue INTEGER NOT NULL, lo_supplycost INTEGER NOT NULL, lo_tax INTEGER NOT NULL,
            lo_commitdate INTEGER NOT NULL, lo_shipmode VARCHAR NOT NULL""");

    public static final TableSchema CUSTOMER = TableSchema.parse("customer", """
            c_custkey INTEGER NOT NULL, c_name VARCHAR NOT NULL, c_address VARCHAR NOT NULL,
            c_city VARCHAR NOT NULL, c_nation VARCHAR NOT NULL, c_region VARCHAR NOT NULL,
            c_phone VARCHAR NOT NULL, c_mktsegment VARCHAR NOT NULL""");

    public static final TableSchema SUPPLIER = TableSchema.parse("supplier", """
            s_suppkey INTEGER NOT NULL, s_name VARCHAR NOT NULL, s_address VARCHAR NOT NULL,
            s_city VARCHAR NOT NULL, s_nation VARCHAR NOT NULL, s_region VARCHAR NOT NULL,
            s_phone VARCHAR NOT NULL""");

    public static final TableSchema PART = TableSchema.parse("part", """
            p_partkey INTEGER NOT NULL, p_name VARCHAR NOT NULL, p_mfgr VARCHAR NOT NULL,
            p_category VARCHAR NOT NULL, p_brand1 VARCHAR NOT NULL, p_color VARCHAR NOT NULL,
            p_type VARCHAR NOT NULL, p_size INTEGER NOT NULL, p_container VARCHAR NOT NULL""");

    public static final TableSchema DDATE = TableSchema.parse("ddate", """
            d_datekey INTEGER NOT NULL, d_date VARCHAR NOT NULL, d_dayofweek VARCHAR NOT NULL,
            d_month VARCHAR NOT NULL, d_year INTEGER NOT NULL, d_yearmonthnum INTEGER NOT NULL,
            d_yearmonth VARCHAR NOT NULL, d_daynuminweek INTEGER NOT NULL, d_daynuminmonth INTEGER NOT NULL,
            d_daynuminyear INTEGER NOT NULL, d_monthnuminyear INTEGER NOT NULL, d_weeknuminyear INTEGER NOT NULL,
            d_sellingseason VARCHAR NOT NULL, d_lastdayinweekfl INTEGER NOT NULL,
            d_lastdayinmonthfl INTEGER NOT NULL, d_holidayfl INTEGER NOT NULL, d_weekdayfl INTEGER NOT NULL""");

    /** In the order {@link SsbGenerator} writes them: dimensions first, the fact table last. */
    public static final List<TableSchema> ALL = List.of(DDATE, CUSTOMER, SUPPLIER, PART, LINEORDER);
}
