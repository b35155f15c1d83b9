package io.tessera.backend.cuda.gen;

import java.util.List;

/**
 * How the device table of one join is laid out, decided by the BUILD kernel and read by the probes: perfect over
 * {@code [min, min + slots)} or linear probing with the murmur or multiply-shift hash; keys of {@code keyType};
 * one array per payload column ({@code payloadTypes}), indexed by slot. {@code payloadDicts}: the dictionary key
 * of each VARCHAR payload column (else null). {@code selectivity}: the estimated fraction of the build table's rows
 * in the table, which is the fraction of probes that find a match when the join follows a foreign key.
 */
public record JoinLayout(int joinId, boolean perfect, boolean murmur, CType keyType, List<CType> payloadTypes,
                         List<String> payloadDicts, long min, long perfectSlots, double selectivity) {

    /** The empty-slot marker of the key array. */
    public long emptyKey() {
        return keyType == CType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
    }

    public String hashStruct() {
        return murmur ? "tessera::HashMurmur" : "tessera::HashMultiplyShift";
    }
}
