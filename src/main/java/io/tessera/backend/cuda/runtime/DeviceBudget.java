package io.tessera.backend.cuda.runtime;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The device column budget of one GPU, one per device for the whole process: every runtime open on that device
 * (one per open database, and a micro-benchmark's) draws its cached columns from it, so that two databases never
 * promise more than the card has. Its total is fixed when the first runtime on the device joins (80% of the memory
 * free then, or {@link GpuRuntime#CACHE_PROPERTY}) and kept until the last one leaves. When a reservation does not
 * fit, the members free what no running query holds: the asking runtime's columns first, then the others', each
 * least recently used first. Its monitor is the device's lock: members change their columns only while holding it,
 * so that one runtime may evict another's.
 */
public final class DeviceBudget {

    /** What a runtime's column cache lets the budget do, called with the budget's monitor held. */
    public interface Member {
        /**
         * Frees columns that no running query holds, least recently used first, until at least {@code bytes} are
         * freed or none is left, each {@link #release released} to the budget.
         */
        void evictUnheld(long bytes);

        /** Frees device memory outside the budget that is only kept for reuse (its pool's free lists). */
        void trim();
    }

    /** The budgets of the devices some runtime has joined, by device ordinal. */
    private static final Map<Integer, DeviceBudget> DEVICES = new HashMap<>();

    private final int ordinal;
    private final long total;
    private final List<Member> members = new ArrayList<>();
    private long used;

    private DeviceBudget(int ordinal, long total) {
        this.ordinal = ordinal;
        this.total = total;
    }

    /**
     * Joins {@code member} to the budget of device {@code ordinal}: the one already there, or a new one of
     * {@code total} bytes (asked only then) when no member is on that device now.
     */
    public static DeviceBudget join(int ordinal, LongSupplier total, Member member) {
        synchronized (DEVICES) {
            DeviceBudget b = DEVICES.get(ordinal);
            if (b == null) {
                long bytes = total.getAsLong();
                if (bytes < 0) {
                    throw new IllegalArgumentException("a device column budget of " + bytes + " bytes");
                }
                b = new DeviceBudget(ordinal, bytes);
                DEVICES.put(ordinal, b);
            }
            synchronized (b) {
                b.members.add(member);
            }
            return b;
        }
    }

    /**
     * Takes {@code member} off the budget, which must have released all it reserved; the budget of a device whose
     * last member left is gone, and the next runtime there measures the device anew.
     */
    public static void leave(DeviceBudget b, Member member) {
        synchronized (DEVICES) {
            synchronized (b) {
                b.members.remove(member);
                if (b.members.isEmpty() && DEVICES.get(b.ordinal) == b) {
                    DEVICES.remove(b.ordinal);
                }
            }
        }
    }

    /** Whether some runtime of this process is on device {@code ordinal} now. */
    static boolean inUse(int ordinal) {
        synchronized (DEVICES) {
            return DEVICES.containsKey(ordinal);
        }
    }

    /**
     * Reserves {@code bytes} for {@code member}, freeing unheld columns where they do not fit: the member's own
     * first, then the other members' in the order they joined. Throws {@link DeviceMemoryException}, reserving
     * nothing, when even then they do not fit.
     */
    public synchronized void reserve(Member member, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a reservation of " + bytes + " bytes");
        }
        if (bytes > total) {
            throw tooLarge(); // more than the whole budget: evicting would not help
        }
        if (bytes > total - used) {
            member.evictUnheld(bytes - (total - used));
        }
        for (Member other : List.copyOf(members)) {
            if (bytes <= total - used) {
                break;
            }
            if (other != member) {
                other.evictUnheld(bytes - (total - used));
            }
        }
        if (bytes > total - used) {
            throw tooLarge();
        }
        used += bytes;
    }

    /** A reservation that does not fit even after every unheld column was evicted: the rest is held by queries. */
    private DeviceMemoryException tooLarge() {
        return new DeviceMemoryException("the columns of this query need more than the device column budget of "
                + (total >> 20) + " MiB" + (members.size() > 1 ? " (shared by the " + members.size()
                + " open databases on this GPU; " + (used >> 20) + " MiB held by running queries)" : ""));
    }

    /** Gives back {@code bytes} reserved before (a column evicted, an upload that failed). */
    public synchronized void release(long bytes) {
        if (bytes < 0 || bytes > used) {
            throw new IllegalStateException("releasing " + bytes + " bytes of a device column budget with " + used
                    + " reserved");
        }
        used -= bytes;
    }

    /**
     * The device ran out of memory (outside what the budget knows: hash tables, other processes): every member
     * trims its pool and frees every column no running query holds.
     */
    public synchronized void reclaim() {
        for (Member m : List.copyOf(members)) {
            m.trim();
            m.evictUnheld(Long.MAX_VALUE);
        }
    }

    /** The budget's bytes, shared by every member. */
    public long total() {
        return total;
    }

    /** Bytes reserved by all members together. */
    public synchronized long used() {
        return used;
    }

    /** The runtimes drawing from it now. */
    public synchronized int members() {
        return members.size();
    }
}
