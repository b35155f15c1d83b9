package io.tessera.backend;

/**
 * A handle to one intermediate of a query: a materialized relation, one writer's rows of a relation not yet
 * complete (a part of a UNION ALL, rows before their sort or LIMIT), or a join table. It names the device that
 * holds it; what it holds ({@link #value}) only that device's backend reads. An intermediate stays on its device
 * until another device needs it: {@link QueryState#onHost} moves it, counted and timed.
 */
public record Intermediate(Kind kind, String device, Object value) {

    public enum Kind {
        RELATION, PART, JOIN_TABLE
    }

    /** The host: the JVM backend's memory, where moved intermediates arrive. */
    public static final String HOST = "jvm";

    public boolean onHost() {
        return HOST.equals(device);
    }

    /** What a device's intermediate is that can be moved to the host. */
    public interface OnDevice {
        /** Its rows read back to the host, in the host's one batch format (columns, dictionaries' keys). */
        io.tessera.backend.host.RelationPart toHost();
    }
}
