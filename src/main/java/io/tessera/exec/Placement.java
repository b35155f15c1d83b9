package io.tessera.exec;

import io.tessera.backend.Backend;
import io.tessera.backend.Intermediate;
import io.tessera.plan.Operation;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;
import io.tessera.plan.Sink;
import io.tessera.plan.Source;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each pipeline of a query runs and why: on the device the user asked for where its backend can run it,
 * else on the JVM (the host, {@link Intermediate#HOST}); a probe and a scan of a table's marks on the device of the table (a table is built where all
 * its probes and the scans of its marks run); a
 * pipeline that reads a relation where that device can read it (the GPU reads tables, and sorts, builds join
 * tables from and aggregates the groups of its own aggregations), and on the JVM when a writer of the relation runs there.
 */
public record Placement(Map<Integer, String> devices, Map<Integer, String> reasons) {

    /** Every pipeline on the JVM, for {@code why}. */
    public static Placement jvm(QueryPlan plan, String why) {
        Map<Integer, String> devices = new LinkedHashMap<>();
        Map<Integer, String> reasons = new LinkedHashMap<>();
        for (Pipeline p : plan.pipelines()) {
            devices.put(p.id(), Intermediate.HOST);
            reasons.put(p.id(), why);
        }
        return new Placement(Collections.unmodifiableMap(devices), Collections.unmodifiableMap(reasons));
    }

    /**
     * Each pipeline on {@code device}, a GPU, where its query {@code gpu} can run it, the rest on the JVM; then,
     * until nothing changes, a table probed on the JVM built there, and a probe of a table built on the JVM run
     * there.
     */
    public static Placement onGpuWherePossible(QueryPlan plan, String device, Backend.Query gpu) {
        Map<Integer, String> devices = new LinkedHashMap<>();
        Map<Integer, String> reasons = new LinkedHashMap<>();
        for (Pipeline p : plan.pipelines()) {
            String why = gpu.unsupported(p.id());
            devices.put(p.id(), why == null ? device : Intermediate.HOST);
            reasons.put(p.id(), why == null ? "it has GPU code" : why);
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Pipeline p : plan.pipelines()) {
                if (p.source() instanceof Source.RelationScan rs && !devices.get(p.id()).equals(Intermediate.HOST)) {
                    for (Pipeline w : writers(plan, rs.relationId())) {
                        if (devices.get(w.id()).equals(Intermediate.HOST)) {
                            devices.put(p.id(), Intermediate.HOST);
                            reasons.put(p.id(), "it reads r" + rs.relationId() + ", made by pipeline " + w.id()
                                    + " on the JVM");
                            changed = true;
                            break;
                        }
                    }
                }
                if (p.source() instanceof Source.JoinTableScan js && devices.get(p.id()).equals(Intermediate.HOST)) {
                    Pipeline build = builder(plan, js.joinId());
                    if (build != null && !devices.get(build.id()).equals(Intermediate.HOST)) {
                        devices.put(build.id(), Intermediate.HOST);
                        reasons.put(build.id(), "its table j" + js.joinId() + " is scanned by pipeline " + p.id()
                                + ", which runs on the JVM");
                        changed = true;
                    }
                }
                if (p.source() instanceof Source.JoinTableScan js && !devices.get(p.id()).equals(Intermediate.HOST)) {
                    Pipeline build = builder(plan, js.joinId());
                    if (build != null && devices.get(build.id()).equals(Intermediate.HOST)) {
                        devices.put(p.id(), Intermediate.HOST);
                        reasons.put(p.id(), "it scans table j" + js.joinId() + ", built on the JVM");
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
                    if (devices.get(p.id()).equals(Intermediate.HOST)) {
                        devices.put(build.id(), Intermediate.HOST);
                        reasons.put(build.id(), "its table j" + probe.joinId() + " is probed by pipeline " + p.id()
                                + ", which runs on the JVM");
                    } else {
                        devices.put(p.id(), Intermediate.HOST);
                        reasons.put(p.id(), "it probes table j" + probe.joinId() + ", built on the JVM");
                    }
                    changed = true;
                }
            }
        }
        return new Placement(Collections.unmodifiableMap(devices), Collections.unmodifiableMap(reasons));
    }

    public String device(int pipelineId) {
        return devices.get(pipelineId);
    }

    public boolean onHost(int pipelineId) {
        return Intermediate.HOST.equals(devices.get(pipelineId));
    }

    /** The pipelines placed on {@code device}, in plan order. */
    public List<Pipeline> on(QueryPlan plan, String device) {
        List<Pipeline> out = new ArrayList<>();
        for (Pipeline p : plan.pipelines()) {
            if (device.equals(devices.get(p.id()))) {
                out.add(p);
            }
        }
        return out;
    }

    /** The pipelines placed on a device other than the host. */
    public int offHost() {
        int n = 0;
        for (String d : devices.values()) {
            n += Intermediate.HOST.equals(d) ? 0 : 1;
        }
        return n;
    }

    public int count(String device) {
        int n = 0;
        for (String d : devices.values()) {
            n += d.equals(device) ? 1 : 0;
        }
        return n;
    }

    /** The pipelines that write relation {@code rel}. */
    private static List<Pipeline> writers(QueryPlan plan, int rel) {
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

    private static Pipeline builder(QueryPlan plan, int joinId) {
        for (Pipeline p : plan.pipelines()) {
            if (p.sink() instanceof Sink.Build b && b.joinId() == joinId) {
                return p;
            }
        }
        return null;
    }
}
