package io.tessera.backend.cuda.driver;

import io.tessera.backend.cuda.CudaException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A driver without the graph calls: each says which call it lacks, and nothing else is refused for it. */
class GraphCallsTest {

    @Test
    void aLibraryWithoutGraphCallsNamesEveryOneMissing() {
        SymbolLookup libc = SymbolLookup.libraryLookup("libc.so.6", Arena.global());
        GraphCalls calls = new GraphCalls(new CudaDriver.Binder(libc, "libc.so.6"), null);
        assertEquals("cuMemsetD8Async, cuMemsetD32Async, cuStreamBeginCapture_v2, cuStreamEndCapture, "
                + "cuGraphInstantiateWithFlags, cuGraphLaunch, cuGraphExecDestroy, cuGraphDestroy", calls.missingGraphCalls());
        CudaException e = assertThrows(CudaException.class, () -> calls.graphLaunch(MemorySegment.NULL, MemorySegment.NULL));
        assertEquals("this CUDA driver has no cuGraphLaunch", e.getMessage());
        e = assertThrows(CudaException.class, () -> calls.memsetD8Async(0, (byte) 0, 8, MemorySegment.NULL));
        assertEquals("this CUDA driver has no cuMemsetD8Async", e.getMessage());
        e = assertThrows(CudaException.class,
                () -> calls.streamBeginCapture(MemorySegment.NULL, GraphCalls.CAPTURE_MODE_THREAD_LOCAL));
        assertEquals("this CUDA driver has no cuStreamBeginCapture_v2", e.getMessage());
    }
}
