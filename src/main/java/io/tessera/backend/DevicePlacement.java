package io.tessera.backend;

import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one placement fixpoint: which pipelines of a query run on a device beside the host, given where their inputs
 * are. A device answers one pipeline at a time in rounds ({@link PlacementRound}); between rounds a table that a
 * pipeline the device refused must probe or scan on the host is built there, and the device is asked again. Then,
 * without asking again, what is left inconsistent moves to the host until nothing changes: a pipeline that reads a
 * relation a writer on the host makes, a probe or scan of a table built on the host, and a table probed or scanned
 * on the host.
 */
public final class DevicePlacement {

    /** Each pipeline's device ({@code device} or {@link Intermediate#HOST}), and why each on the host is there. */
    public record Placed(Map<Integer, String> devices, Map<Integer, String> hostReasons) {
    }

    private DevicePlacement() {
    }

    /** The rounds (see {@link #askRounds}), then the moves to the host that keep inputs where their readers are. */
    public static Placed place(QueryPlan plan, String device, Supplier<PlacementRound> rounds) {
        Placed asked = askRounds(plan, device, rounds);
        Map<Integer, String> devices = new LinkedHashMap<>(asked.devices());
        Map<Integer, String> reasons = new LinkedHashMap<>(asked.hostReasons());
        settle(plan, devices, reasons);
        return new Placed(Collections.unmodifiableMap(devices), Collections.unmodifiableMap(reasons));
    }

    /**
     * The device's rounds alone: each asks it about every pipeline not yet put on the host; a table built on the
     * device that a pipeline it refused probes or scans is built on the host instead, and a new round is asked,
     * until a round builds no such table. The last round asked is the answer.
     */
    public static Placed askRounds(QueryPlan plan, String device, Supplier<PlacementRound> rounds) {
        Map<Integer, String> forced = new HashMap<>();
        while (true) {
            PlacementRound round = rounds.get();
            Map<Integer, String> devices = new LinkedHashMap<>();
            Map<Integer, String> reasons = new LinkedHashMap<>();
            List<Pipeline> refused = new ArrayList<>();
            for (Pipeline p : plan.pipelines()) {
                String why = forced.get(p.id());
                if (why == null) {
                    why = round.accepts(p, devices::get);
                    if (why != null) {
                        refused.add(p);
                    }
                }
                devices.put(p.id(), why == null ? device : Intermediate.HOST);
                if (why != null) {
                    reasons.put(p.id(), why);
                }
            }
            round.finish(Collections.unmodifiableMap(reasons));
            boolean changed = false;
            for (Pipeline p : refused) {
                if (p.source() instanceof Source.JoinTableScan js) {
                    changed |= buildOnHost(plan, device, devices, forced, js.joinId(), "scanned", p);
                }
                for (Operation op : p.operations()) {
                    if (op instanceof Operation.Probe probe) {
                        changed |= buildOnHost(plan, device, devices, forced, probe.joinId(), "probed", p);
                    }
                }
            }
            if (!changed) {
                return new Placed(Collections.unmodifiableMap(devices), Collections.unmodifiableMap(reasons));
            }
        }
    }

    /** Puts the builder of table {@code joinId} on the host for the next round when it is on the device in this one. */
    private static boolean buildOnHost(QueryPlan plan, String device, Map<Integer, String> devices,
                                       Map<Integer, String> forced, int joinId, String how, Pipeline reader) {
        Pipeline build = builder(plan, joinId);
        if (build == null || !device.equals(devices.get(build.id()))) {
            return false;
        }
        // a later reader on the host names itself instead: the last one of the round is the reason
        forced.put(build.id(), "its table j" + joinId + " is " + how + " by pipeline " + reader.id()
                + ", which runs on the JVM");
        return true;
    }

    /**
     * Until nothing changes: a pipeline that reads a relation a writer on the host makes runs on the host; a table
     * scanned or probed on the host is built there, and a scan or probe of a table built on the host runs there.
     */
    private static void settle(QueryPlan plan, Map<Integer, String> devices, Map<Integer, String> reasons) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Pipeline p : plan.pipelines()) {
                if (p.source() instanceof Source.RelationScan rs && !onHost(devices, p)) {
                    for (Pipeline w : writers(plan, rs.relationId())) {
                        if (onHost(devices, w)) {
                            toHost(devices, reasons, p, "it reads r" + rs.relationId() + ", made by pipeline " + w.id()
                                    + " on the JVM");
                            changed = true;
                            break;
                        }
                    }
                }
                if (p.source() instanceof Source.JoinTableScan js && onHost(devices, p)) {
                    Pipeline build = builder(plan, js.joinId());
                    if (build != null && !onHost(devices, build)) {
                        toHost(devices, reasons, build, "its table j" + js.joinId() + " is scanned by pipeline " + p.id()
                                + ", which runs on the JVM");
                        changed = true;
                    }
                }
                if (p.source() instanceof Source.JoinTableScan js && !onHost(devices, p)) {
                    Pipeline build = builder(plan, js.joinId());
                    if (build != null && onHost(devices, build)) {
                        toHost(devices, reasons, p, "it scans table j" + js.joinId() + ", built on the JVM");
                        changed = true;
                    }
                }
                for (Operation op : p.operations()) {
                    if (!(op instanceof Operation.Probe probe)) {
                        continue;
                    }
                    Pipeline build = builder(plan, probe.joinId());
                    if (build == null || devices.get(build.id()).equals(devices.get(p.id()))) {
                        continue;
                    }
                    if (onHost(devices, p)) {
                        toHost(devices, reasons, build, "its table j" + probe.joinId() + " is probed by pipeline " + p.id()
                                + ", which runs on the JVM");
                    } else {
                        toHost(devices, reasons, p, "it probes table j" + probe.joinId() + ", built on the JVM");
                    }
                    changed = true;
                }
            }
        }
    }

    private static boolean onHost(Map<Integer, String> devices, Pipeline p) {
        return Intermediate.HOST.equals(devices.get(p.id()));
    }

    private static void toHost(Map<Integer, String> devices, Map<Integer, String> reasons, Pipeline p, String why) {
        devices.put(p.id(), Intermediate.HOST);
        reasons.put(p.id(), why);
    }

    /** The pipelines that write relation {@code rel} (a UNION ALL's parts have several). */
    public static List<Pipeline> writers(QueryPlan plan, int rel) {
        List<Pipeline> out = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            int written = switch (p.sink()) {
                case Sink.Materialize m -> m.relationId();
                case Sink.Sort s -> s.relationId();
                case Sink.Window w -> w.relationId();
                case Sink.GroupAggregate g -> g.relationId();
                case Sink.Aggregate a -> a.relationId();
                case Sink.Build b -> -1;
                case Sink.Marks m -> -1;
            };
            if (written == rel) {
                out.add(p);
            }
        }
        return out;
    }

    /** The pipeline that builds join table {@code joinId}, or null. */
    public static Pipeline builder(QueryPlan plan, int joinId) {
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.Build b && b.joinId() == joinId) {
                return p;
            }
        }
        return null;
    }
}
