package io.tessera.plan;

import io.tessera.storage.DataType;

/**
 * A value a pipeline can load for its current row: column {@code index} of its source ({@code joinId} = -1),
 * or payload column {@code index} of the build row that probe {@code joinId} matched. {@code dictionaryKey}
 * names the dictionary a VARCHAR slot's codes belong to: two slots with equal keys compare by code.
 */
public record Slot(int joinId, int index, String name, DataType type, boolean nullable, String dictionaryKey,
                   io.tessera.storage.Column origin) {

    /** {@code origin}: the stored column the values come from unchanged (for statistics), or null. */
    public static Slot source(int index, String name, DataType type, boolean nullable, String dictionaryKey,
                              io.tessera.storage.Column origin) {
        return new Slot(-1, index, name, type, nullable, dictionaryKey, origin);
    }

    public boolean isSource() {
        return joinId < 0;
    }

    @Override
    public String toString() {
        return isSource() ? name : "j" + joinId + "." + name;
    }
}
