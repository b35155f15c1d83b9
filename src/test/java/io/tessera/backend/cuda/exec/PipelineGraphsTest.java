package io.tessera.backend.cuda.exec;

import io.tessera.backend.cuda.driver.KernelArgs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a pipeline's device work goes through a CUDA graph, and what happens when the graph path fails. */
class PipelineGraphsTest {

    /** What the steps and graphs did, in order. */
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void clearFailure() {
        PipelineGraphs.resetFailure();
    }

    /** Steps that log themselves when issued one by one: a clear of {@code address} and a launch with {@code arg}. */
    private DeviceSteps steps(long address, long arg) {
        DeviceSteps s = new DeviceSteps();
        s.add(new DeviceSteps.FillKey("zero", address, 0, 256), stream -> log.add("zero " + address));
        s.add(List.of("kernel", KernelArgs.of().ptr(address).i64(arg).args()), stream -> log.add("launch " + arg));
        return s;
    }

    /** A capture that records what it captured, and a graph that logs its launches. */
    private PipelineGraphs.Graph capture(DeviceSteps s) {
        log.add("capture " + s.size());
        return new PipelineGraphs.Graph() {
            @Override
            public void launch() {
                log.add("graph");
            }

            @Override
            public void close() {
                log.add("close");
            }
        };
    }

    @Test
    void theSwitchIsOffUnlessSetOn() {
        assertFalse(PipelineGraphs.switchedOn(null));
        assertFalse(PipelineGraphs.switchedOn("off"));
        assertFalse(PipelineGraphs.switchedOn("false"));
        assertTrue(PipelineGraphs.switchedOn("on"));
        assertTrue(PipelineGraphs.switchedOn(" ON "));
        assertTrue(PipelineGraphs.switchedOn("true"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PipelineGraphs.switchedOn("yes"));
        assertTrue(e.getMessage().contains("tessera.gpu.graphs"), e.getMessage());
    }

    @Test
    void stepsSeenOnceRunPlainlyTwiceAreCapturedThenLaunchedAgain() {
        PipelineGraphs g = new PipelineGraphs();
        assertEquals(PipelineGraphs.Issued.PLAIN, g.issue(1, steps(4096, 7), this::capture));
        assertEquals(List.of("zero 4096", "launch 7"), log);
        log.clear();
        assertEquals(PipelineGraphs.Issued.CAPTURED, g.issue(1, steps(4096, 7), this::capture));
        assertEquals(List.of("capture 2", "graph"), log, "the captured graph runs the steps, nothing runs twice");
        log.clear();
        assertEquals(PipelineGraphs.Issued.REUSED, g.issue(1, steps(4096, 7), this::capture));
        assertEquals(List.of("graph"), log);
        assertTrue(PipelineGraphs.summary().startsWith("CUDA graphs: "), PipelineGraphs.summary());
    }

    @Test
    void anotherArgumentRunsPlainlyAndIsCapturedOnlyWhenItRepeats() {
        PipelineGraphs g = new PipelineGraphs();
        g.issue(1, steps(4096, 7), this::capture);
        g.issue(1, steps(4096, 7), this::capture);
        log.clear();
        // a buffer at another address: the captured graph would write the old one
        assertEquals(PipelineGraphs.Issued.PLAIN, g.issue(1, steps(8192, 7), this::capture));
        assertEquals(List.of("zero 8192", "launch 7"), log);
        log.clear();
        assertEquals(PipelineGraphs.Issued.CAPTURED, g.issue(1, steps(8192, 7), this::capture));
        assertEquals(List.of("capture 2", "close", "graph"), log, "the old graph freed for the new one");
        log.clear();
        // a scalar argument changed: plain again
        assertEquals(PipelineGraphs.Issued.PLAIN, g.issue(1, steps(8192, 8), this::capture));
        assertEquals(List.of("zero 8192", "launch 8"), log);
    }

    @Test
    void pipelinesHaveGraphsOfTheirOwn() {
        PipelineGraphs g = new PipelineGraphs();
        g.issue(1, steps(4096, 7), this::capture);
        assertEquals(PipelineGraphs.Issued.PLAIN, g.issue(2, steps(4096, 7), this::capture));
        assertEquals(PipelineGraphs.Issued.CAPTURED, g.issue(1, steps(4096, 7), this::capture));
        log.clear();
        g.close();
        assertEquals(List.of("close"), log);
    }

    @Test
    void aFailedCaptureRunsTheStepsPlainlyAndTurnsGraphsOffOnce() {
        PipelineGraphs g = new PipelineGraphs();
        g.issue(1, steps(4096, 7), this::capture);
        log.clear();
        PipelineGraphs.Issued issued = g.issue(1, steps(4096, 7), s -> {
            throw new IllegalStateException("cuStreamBeginCapture_v2 failed: CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED");
        });
        assertEquals(PipelineGraphs.Issued.PLAIN, issued);
        assertEquals(List.of("zero 4096", "launch 7"), log, "the steps ran once, one by one");
        assertNotNull(PipelineGraphs.failure());
        assertTrue(PipelineGraphs.failure().contains("CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"));
        System.setProperty(PipelineGraphs.PROPERTY, "on");
        try {
            assertFalse(PipelineGraphs.enabled(), "graphs stay off after a failure");
            // the first failure's line only
            assertNull(PipelineGraphs.fail("another"));
            PipelineGraphs.resetFailure();
            assertTrue(PipelineGraphs.enabled());
        } finally {
            System.clearProperty(PipelineGraphs.PROPERTY);
        }
        assertFalse(PipelineGraphs.enabled());
    }

    @Test
    void aFailedGraphLaunchRunsTheStepsPlainly() {
        PipelineGraphs g = new PipelineGraphs();
        g.issue(1, steps(4096, 7), this::capture);
        log.clear();
        PipelineGraphs.Issued issued = g.issue(1, steps(4096, 7), s -> new PipelineGraphs.Graph() {
            @Override
            public void launch() {
                throw new IllegalStateException("cuGraphLaunch failed");
            }

            @Override
            public void close() {
            }
        });
        assertEquals(PipelineGraphs.Issued.PLAIN, issued);
        assertEquals(List.of("zero 4096", "launch 7"), log);
        assertEquals("cuGraphLaunch failed", PipelineGraphs.failure());
    }

    @Test
    void stepKeysSayEverythingTheStepsDo() {
        assertEquals(steps(4096, 7).keys(), steps(4096, 7).keys());
        assertFalse(steps(4096, 7).keys().equals(steps(4096, 8).keys()));
        assertFalse(steps(4096, 7).keys().equals(steps(4352, 7).keys()));
        DeviceSteps s = steps(4096, 7);
        s.runOn(null);
        assertEquals(List.of("zero 4096", "launch 7"), log);
    }
}
