package io.tessera.storage;

/** The physical kinds of column Tessera stores, with the width of one value in bytes. */
public enum TypeKind {
    INTEGER(4),
    BIGINT(8),
    DOUBLE(8),
    /** DECIMAL(p,s): the unscaled value as a 64-bit integer, so sums are exact. */
    DECIMAL(8),
    /** Days since 1970-01-01 as a 32-bit integer. */
    DATE(4),
    /** Microseconds since 1970-01-01 00:00:00 (no time zone) as a 64-bit integer. */
    TIMESTAMP(8),
    /**
     * TIMESTAMP WITH TIME ZONE: an instant as microseconds since 1970-01-01 00:00:00 UTC, a 64-bit integer; shown,
     * read without an offset and taken apart in the session's time zone.
     */
    TIMESTAMP_TZ(8),
    /** Microseconds since midnight (a time of day, no time zone) as a 64-bit integer. */
    TIME(8),
    /** One byte per value, 0 or 1. */
    BOOLEAN(1),
    /** 32-bit codes into the column's order-preserving dictionary. */
    VARCHAR(4);

    private final int byteWidth;

    TypeKind(int byteWidth) {
        this.byteWidth = byteWidth;
    }

    public int byteWidth() {
        return byteWidth;
    }

    /** True for kinds stored as 4-byte integers (INTEGER, DATE, VARCHAR codes). */
    public boolean isInt32() {
        return byteWidth == 4;
    }

    /** True for kinds stored as 8-byte integers. */
    public boolean isInt64() {
        return this == BIGINT || this == DECIMAL || this == TIMESTAMP || this == TIMESTAMP_TZ || this == TIME;
    }

    /**
     * True for the kinds of a point in time or a day (DATE, TIMESTAMP, TIMESTAMP WITH TIME ZONE), whose values order
     * as their integers.
     */
    public boolean isTemporal() {
        return this == DATE || this == TIMESTAMP || this == TIMESTAMP_TZ;
    }

    /** Its SQL name: TIMESTAMP WITH TIME ZONE for TIMESTAMP_TZ, as DuckDB's typeof names it; else the kind's name. */
    public String sqlName() {
        return this == TIMESTAMP_TZ ? "TIMESTAMP WITH TIME ZONE" : name();
    }
}
