package io.tessera.api;

/** Thrown by a query whose {@link QueryCancel} was cancelled; its message is {@code query cancelled}. */
public final class QueryCancelledException extends RuntimeException {

    public QueryCancelledException() {
        super("query cancelled", null, false, false);
    }
}
