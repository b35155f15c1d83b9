package io.tessera.backend.jvm.gen;

import io.tessera.backend.jvm.join.JoinTable;
import io.tessera.backend.host.ColumnData;
import io.tessera.storage.Dictionary;

import java.util.List;

/** The inputs a generated pipeline binds in init: its source columns, the join tables it probes, dictionaries. */
public interface PipelineContext {

    /** Column {@code i} of the pipeline's source. */
    ColumnData column(int i);

    JoinTable joinTable(int joinId);

    /** The dictionary known under this key (a stored column's "table.column", or a relation column's "rN.i"). */
    Dictionary dictionary(String key);

    /** The query's cancel, which loops that may run long inside one source row check (null: none). */
    default io.tessera.api.QueryCancel cancel() {
        return null;
    }

    /** Extra constant inputs by name (unused for now; room for later variants). */
    default List<Object> constants() {
        return List.of();
    }
}
