package io.tessera.backend;

import io.tessera.storage.DataType;

/**
 * How a value is held: the element type of a column's array in rows on the host ({@link io.tessera.backend.host.RowBuffer},
 * the one batch format), and the kind of a local in the JVM's generated code. {@link #stored} is the one mapping from storage
 * types to kinds: a new type is added there.
 */
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
