package io.tessera.backend.jvm;

import org.codehaus.janino.SimpleCompiler;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles generated pipeline sources with Janino, caching the classes by their code: the source without its
 * {@code // genome:} comment line, so that variants whose code is the same (they differ only in how the executor
 * runs them, e.g. workers and morsel size) share one class and its JIT-compiled code.
 */
public final class JavaCompiler {

    private static final String GENOME_LINE = "// genome: ";
    private static final ConcurrentHashMap<String, Class<? extends PipelineCode>> CACHE = new ConcurrentHashMap<>();

    private JavaCompiler() {
    }

    public static Class<? extends PipelineCode> compile(String className, String source) {
        return CACHE.computeIfAbsent(codeKey(source), k -> compileUncached(className, source));
    }

    /** Compiles without the shared cache, so that the class can be unloaded once unused (tuning tries thousands). */
    public static Class<? extends PipelineCode> compileUncached(String className, String source) {
        try {
            SimpleCompiler c = new SimpleCompiler();
            c.setParentClassLoader(JavaCompiler.class.getClassLoader());
            c.cook(source);
            return c.getClassLoader().loadClass(className).asSubclass(PipelineCode.class);
        } catch (Exception e) {
            throw new IllegalStateException("generated code of " + className + " does not compile: " + e.getMessage()
                    + "\n" + numbered(source), e);
        }
    }

    public static boolean isCached(String source) {
        return CACHE.containsKey(codeKey(source));
    }

    /** The source without its genome comment line: equal for variants that compile to the same class. */
    public static String codeKey(String source) {
        int i = source.indexOf(GENOME_LINE);
        if (i < 0 || (i > 0 && source.charAt(i - 1) != '\n')) {
            return source;
        }
        int end = source.indexOf('\n', i);
        return source.substring(0, i) + (end < 0 ? "" : source.substring(end + 1));
    }

    private static String numbered(String s) {
        StringBuilder sb = new StringBuilder();
        String[] lines = s.split("\n");
        for (int i = 0; i < lines.length; i++) {
            sb.append(String.format("%4d  %s%n", i + 1, lines[i]));
        }
        return sb.toString();
    }
}
