package io.tessera.backend.jvm.relation;

import io.tessera.backend.host.ColumnData;
import java.util.List;

/** Rows an earlier pipeline produced (or a stored table's columns), read by later pipelines as a source. */
public record Relation(List<ColumnData> columns, long rows) {
}
