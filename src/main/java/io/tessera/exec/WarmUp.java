package io.tessera.exec;

import io.tessera.backend.Devices;
import io.tessera.optimize.Optimizer;
import io.tessera.plan.PhysicalPlanner;
import io.tessera.plan.QueryPlan;
import io.tessera.profile.DeviceInfo;
import io.tessera.profile.GenomeChooser;
import io.tessera.sql.CalciteSetup;
import io.tessera.sql.SqlFrontEnd;
import io.tessera.variant.Genome;
import io.tessera.variant.VariantSpaces;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one-time work of a process's first query, begun early on a thread of its own: Calcite's first use (parser,
 * operator tables, validator, rules, metadata), the physical planner, the emitters and Janino's first compile, all
 * on a query over no tables. Started before a database is opened ({@code Tessera.open}, and the command line before
 * it parses its options), it runs on another core while the caller reads the database's manifest; whatever the
 * caller's first query then needs is initialized already or being initialized (the JVM makes the caller wait for a
 * class being initialized, never initializes one twice). It changes no state a query reads: it compiles outside the
 * class cache and the compile count, and it fails silently, since the query itself does the same work and reports
 * what goes wrong.
 */
public final class WarmUp {

    /** Set to {@code false}, no warm-up thread is started (for measuring what it saves). */
    public static final String PROPERTY = "tessera.warmUp";

    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private WarmUp() {
    }

    /** Starts the warm-up, once per process; later calls do nothing, and so does every call where it is turned off. */
    public static void start() {
        if ("false".equals(System.getProperty(PROPERTY)) || !STARTED.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> run(), "tessera-warm-up");
        t.setDaemon(true); // never keeps the JVM alive
        t.start();
    }

    /** The warm-up itself, on the caller's thread (the tests run it so); returns the classes it compiled. */
    static int run() {
        int compiled = 0;
        try {
            SqlFrontEnd.LogicalPlan logical = CalciteSetup.warmUp();
            QueryPlan plan = PhysicalPlanner.plan(Optimizer.optimize(logical));
            int cores = Runtime.getRuntime().availableProcessors();
            GenomeChooser chooser = new GenomeChooser(VariantSpaces.forBackend("jvm", cores), null,
                    DeviceInfo.machineCpu(cores).fingerprint());
            Map<Integer, Genome> genomes = chooser.choose(plan).genomes();
            compiled = Devices.hostOnly().host().warmUp(plan, genomes);
        } catch (RuntimeException | LinkageError e) {
            // the first query does this work itself and reports what fails
        }
        return compiled;
    }
}
