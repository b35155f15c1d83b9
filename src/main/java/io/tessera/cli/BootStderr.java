package io.tessera.cli;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Gives the process back the standard error that the {@code tessera} launcher kept aside while the JVM booted.
 *
 * <p>The JVM prints {@code WARNING: Using incubator modules: jdk.incubator.vector} on standard error while it boots
 * with the Vector API module, and no option turns the line off. So the launcher boots the JVM with standard error
 * going through a filter that drops that one line, the terminal's standard error kept open as another descriptor
 * (named by the system property {@value #PROPERTY}); here, before Tessera writes anything, that descriptor becomes
 * standard error again (POSIX {@code dup2}), and nothing more reaches the filter. Should that fail,
 * standard error stays the filter's: every line but the warning still arrives.
 */
final class BootStderr {

    static final String PROPERTY = "tessera.stderr.fd";
    private static final int STDERR = 2;

    private BootStderr() {
    }

    static void restore() {
        String kept = System.getProperty(PROPERTY);
        if (kept == null) {
            return;
        }
        try {
            int fd = Integer.parseInt(kept);
            Linker linker = Linker.nativeLinker();
            FunctionDescriptor intOfInts = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT);
            MethodHandle dup2 = linker.downcallHandle(linker.defaultLookup().find("dup2").orElseThrow(), intOfInts);
            MethodHandle close = linker.downcallHandle(linker.defaultLookup().find("close").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            System.err.flush();
            if ((int) dup2.invokeExact(fd, STDERR) == STDERR) {
                int ignored = (int) close.invokeExact(fd);
            }
        } catch (Throwable e) {
            // standard error stays the launcher's filter, which passes on everything but the boot warning
        }
    }
}
