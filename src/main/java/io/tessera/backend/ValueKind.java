package io.tessera.backend;

import io.tessera.storage.DataType;

/** How host rows hold a column's values: the element type of its array. */
public enum ValueKind {
    INT, LONG, DOUBLE, BOOL,
    /** a VARCHAR as its code in a known dictionary (an int). */
    CODE,
    /** a VARCHAR as a Java String (computed strings). */
    STRING;

    /** The kind a stored value of this type is held as (VARCHAR as codes). */
    public static ValueKind stored(DataType t) {
        return switch (t.kind()) {
            case INTEGER, DATE -> INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> LONG;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOL;
            case VARCHAR -> CODE;
        };
    }
}
