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

    /** POSIX {@code isatty(2)}; false where it cannot be asked. */
    static boolean stderrIsTerminal() {
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
