package io.tessera.sql;

/** A statement Tessera cannot run: a syntax, name or type error, or an unsupported construct, with its position. */
public final class SqlError extends RuntimeException {
    public SqlError(String message) {
        super(message);
    }

    public SqlError(String message, Throwable cause) {
        super(message, cause);
    }
}
