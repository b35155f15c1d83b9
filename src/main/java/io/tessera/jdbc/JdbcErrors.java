package io.tessera.jdbc;

import io.tessera.api.QueryCancelledException;
import io.tessera.sql.SqlError;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;

/** Tessera's exceptions as JDBC's, with the message Tessera gives (the construct and its position). */
final class JdbcErrors {

    /** SQLSTATE of a statement stopped by {@code Statement.cancel()}. */
    static final String CANCELLED = "57014";

    private JdbcErrors() {
    }

    /** The SQLException for a failure of a statement or a database operation. */
    static SQLException of(RuntimeException e) {
        String message = message(e);
        if (e instanceof QueryCancelledException) {
            return new SQLException(message, CANCELLED, e);
        }
        if (e instanceof SqlError) {
            // syntax, name and type errors and unsupported constructs: the statement is at fault
            return message.startsWith("unsupported: ")
                    ? new SQLFeatureNotSupportedException(message, "0A000", e)
                    : new SQLSyntaxErrorException(message, "42000", e);
        }
        return new SQLException(message, "XX000", e);
    }

    /** The first message in the chain of causes. */
    static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
        }
        return e.getClass().getSimpleName();
    }

    /** A JDBC feature the driver does not have, named. */
    static SQLFeatureNotSupportedException unsupported(String feature) {
        return new SQLFeatureNotSupportedException("not supported by the Tessera driver: " + feature, "0A000");
    }

    static SQLException closed(String what) {
        return new SQLException("the " + what + " is closed", "08003");
    }
}
