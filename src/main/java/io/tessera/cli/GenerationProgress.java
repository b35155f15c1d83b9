package io.tessera.cli;

import io.tessera.data.Progress;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The progress a generating command shows: a line per committed table on standard output, and, only when standard
 * error is a terminal, a line there redrawn as rows are made (rows, rate, time left).
 */
final class GenerationProgress {

    private static final int STDERR = 2;

    private GenerationProgress() {
    }

    static Progress forConsole() {
        return Progress.report(System.out, stderrIsTerminal() ? System.err : null);
    }

    /**
     * Whether standard error is a terminal. On Linux, read from the name of the file that descriptor 2 opens
     * ({@link #isTerminalName}); elsewhere POSIX {@code isatty(2)}, false where it cannot be asked. The first
     * downcall through the foreign-function linker spins its method handles at run time: 130 to 200 ms of CPU in a
     * fresh JVM, against about 3 ms for reading the link, in every {@code tessera sql -c} (docs/PERFORMANCE.md).
     */
    static boolean stderrIsTerminal() {
        java.nio.file.Path fd = java.nio.file.Path.of("/proc/self/fd/" + STDERR);
        try {
            return isTerminalName(java.nio.file.Files.readSymbolicLink(fd).toString());
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return isatty();
        }
    }

    /** Whether a device file's name is a terminal's: a pseudo-terminal, a console, a serial line. */
    static boolean isTerminalName(String file) {
        return file.startsWith("/dev/pts/") || file.startsWith("/dev/tty") || file.equals("/dev/console");
    }

    /** POSIX {@code isatty(2)} through the foreign-function linker; false where it cannot be asked. */
    static boolean isatty() {
        try {
            Linker linker = Linker.nativeLinker();
            MethodHandle isatty = linker.downcallHandle(linker.defaultLookup().find("isatty").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
            return (int) isatty.invokeExact(STDERR) == 1;
        } catch (Throwable e) {
            return false;
        }
    }
}
