package io.tessera.backend.jvm.gen;

import io.tessera.backend.ValueKind;

/**
 * The Java type of a generated local that holds a value of a {@link ValueKind}: the kinds themselves (and which
 * storage type is held as which) are {@code backend.ValueKind}'s, shared with the host's rows and every device.
 */
public final class JavaTypes {

    private JavaTypes() {
    }

    public static String of(ValueKind kind) {
        return switch (kind) {
            case INT, CODE -> "int";
            case LONG -> "long";
            case DOUBLE -> "double";
            case BOOL -> "boolean";
            case STRING -> "String";
        };
    }
}
