package io.tessera.backend.jvm.gen;

import io.tessera.storage.DataType;

/** How generated code holds a value: the Java type of its variable. */
public enum JKind {
    INT("int"), LONG("long"), DOUBLE("double"), BOOL("boolean"),
    /** a VARCHAR as its code in a known dictionary. */
    CODE("int"),
    /** a VARCHAR as a Java String (computed strings, literals). */
    STRING("String");

    public final String javaType;

    JKind(String javaType) {
        this.javaType = javaType;
    }

    /** The kind of a stored value of this type (VARCHAR as codes). */
    public static JKind stored(DataType t) {
        return switch (t.kind()) {
            case INTEGER, DATE -> INT;
            case BIGINT, DECIMAL, TIMESTAMP, TIMESTAMP_TZ, TIME -> LONG;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOL;
            case VARCHAR -> CODE;
        };
    }
}
