package io.tessera.backend.jvm;

import org.codehaus.janino.SimpleCompiler;

import java.util.concurrent.ConcurrentHashMap;

/** Compiles generated pipeline sources with Janino, caching the classes by source text. */
public final class JavaCompiler {

    private static final ConcurrentHashMap<String, Class<? extends PipelineCode>> CACHE = new ConcurrentHashMap<>();

    private JavaCompiler() {
    }

    public static Class<? extends PipelineCode> compile(String className, String source) {
        return CACHE.computeIfAbsent(source, s -> {
            try {
                SimpleCompiler c = new SimpleCompiler();
                c.setParentClassLoader(JavaCompiler.class.getClassLoader());
                c.cook(s);
                return c.getClassLoader().loadClass(className).asSubclass(PipelineCode.class);
            } catch (Exception e) {
                throw new IllegalStateException("generated code of " + className + " does not compile: " + e.getMessage()
                        + "\n" + numbered(s), e);
            }
        });
    }

    public static boolean isCached(String source) {
        return CACHE.containsKey(source);
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
