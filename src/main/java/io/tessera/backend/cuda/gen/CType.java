package io.tessera.backend.cuda.gen;

import io.tessera.storage.DataType;

/** The C type a value has in a kernel's registers, and the one its SQL type is stored as in device memory. */
public enum CType {
    INT("int", 4), LONG("long long", 8), DOUBLE("double", 8), BOOL("bool", 1);

    public final String c;
    public final int bytes;

    CType(String c, int bytes) {
        this.c = c;
        this.bytes = bytes;
    }

    /** The register type of a stored value of this SQL type (VARCHAR as its dictionary code). */
    public static CType stored(DataType t) {
        return switch (t.kind()) {
            case INTEGER, DATE, VARCHAR -> INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> LONG;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOL;
        };
    }

    /** The element type of a stored column in device memory (BOOLEAN columns are bytes). */
    public String memory() {
        return this == BOOL ? "unsigned char" : c;
    }
}
