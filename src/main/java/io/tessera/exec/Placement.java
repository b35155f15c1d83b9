package io.tessera.exec;

import io.tessera.backend.Backend;
import io.tessera.backend.DevicePlacement;
import io.tessera.backend.Intermediate;
import io.tessera.plan.Pipeline;
import io.tessera.plan.QueryPlan;

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
 * tables from and aggregates the groups of its own aggregations), and on the JVM when a writer of the relation runs
 * there. The fixpoint that decides it is {@link DevicePlacement}'s, the device answering per pipeline.
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
     * Each pipeline on {@code device}, a GPU, where its query {@code gpu} can run it given where its inputs are, the
     * rest on the JVM: {@link DevicePlacement}'s fixpoint.
     */
    public static Placement onGpuWherePossible(QueryPlan plan, String device, Backend.Query gpu) {
        DevicePlacement.Placed placed = DevicePlacement.place(plan, device, gpu::placementRound);
        Map<Integer, String> reasons = new LinkedHashMap<>();
        for (Pipeline p : plan.pipelines()) {
            String why = placed.hostReasons().get(p.id());
            reasons.put(p.id(), why == null ? "it has GPU code" : why);
        }
        return new Placement(placed.devices(), Collections.unmodifiableMap(reasons));
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
}
