package io.tessera.backend.host;

import io.tessera.backend.ValueKind;

/**
 * One writer's rows of a relation, or rows a device hands the host ({@code backend.Intermediate.OnDevice}): the
 * buffer and, per CODE column, the key of the dictionary its codes belong to (null for other kinds, or when
 * unknown).
 */
public record RelationPart(RowBuffer rows, String[] dictionaries) {

    /** Empty columns of exactly {@code size} rows ({@link RowBuffer#allocate}); {@code dictionaries} null: none known. */
    public static RelationPart allocate(ValueKind[] kinds, String[] dictionaries, int size) {
        return new RelationPart(RowBuffer.allocate(kinds, size),
                dictionaries == null ? new String[kinds.length] : dictionaries.clone());
    }

    /** Columns {@code columns[0]}, {@code columns[1]}, ... of this part, sharing their arrays. */
    public RelationPart project(int[] columns) {
        String[] dicts = new String[columns.length];
        for (int c = 0; c < columns.length; c++) {
            dicts[c] = dictionaries[columns[c]];
        }
        return new RelationPart(rows.project(columns), dicts);
    }

    public int size() {
        return rows.size;
    }
}
