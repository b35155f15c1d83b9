package io.tessera.backend.host;

import io.tessera.plan.ColumnInfo;

import java.time.ZoneId;
import java.util.List;

/** A query's result on the host, read out value by value (to Java objects, to a table's writer, to a file). */
public interface ResultRelation {

    int rowCount();

    List<ColumnInfo> columns();

    /**
     * The Java object of column {@code c} in row {@code r} (Integer, Long, Double, BigDecimal, LocalDate, ...; a
     * BLOB as byte[], a UUID as java.util.UUID; null for NULL), a TIMESTAMP WITH TIME ZONE as an OffsetDateTime in
     * {@code zone}.
     */
    Object value(int c, int r, ZoneId zone);

    /** {@link #value(int, int, ZoneId)} with TIMESTAMP WITH TIME ZONE values in UTC. */
    default Object value(int c, int r) {
        return value(c, r, java.time.ZoneOffset.UTC);
    }
}
