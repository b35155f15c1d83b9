package io.tessera.plan;

/** A sort key: an output column, direction, and where NULLs go. */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
    @Override
    public String toString() {
        return "#" + column + (descending ? " desc" : " asc") + (nullsFirst ? " nulls first" : " nulls last");
    }
}
