package io.tessera.backend.jvm.gen;

import org.codehaus.janino.SimpleCompiler;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles generated pipeline sources with Janino, caching the classes by their code: the source without its
 * {@code // genome:} comment line, so that variants whose code is the same (they differ only in how the executor
 * runs them, e.g. workers and morsel size) share one class and its JIT-compiled code. A class not yet compiled in
 * this process is first looked for among the class files earlier processes of the same build stored
 * ({@link ClassFileCache}), and one compiled here is stored there.
 */
public final class JavaCompiler {

    private static final ConcurrentHashMap<String, Class<? extends PipelineCode>> CACHE = new ConcurrentHashMap<>();
    private static final java.util.concurrent.atomic.AtomicLong COMPILES = new java.util.concurrent.atomic.AtomicLong();

    private JavaCompiler() {
    }

    public static Class<? extends PipelineCode> compile(String className, String source) {
        return CACHE.computeIfAbsent(codeKey(source), k -> storedOrCompiled(ClassFileCache.forProcess(), k, className,
                source));
    }

    /** The class of {@code codeKey} defined from {@code store}'s files, else compiled and stored there. */
    static Class<? extends PipelineCode> storedOrCompiled(ClassFileCache store, String codeKey, String className,
            String source) {
        if (store == null) {
            return compileUncached(className, source);
        }
        Map<String, byte[]> stored = store.load(codeKey);
        if (stored != null) {
            Class<? extends PipelineCode> defined = StoredClasses.define(stored);
            if (defined != null) {
                return defined;
            }
        }
        COMPILES.incrementAndGet();
        SimpleCompiler c = cooked(className, source);
        Class<? extends PipelineCode> compiled = pipelineClass(c, className);
        storeClasses(store, codeKey, c, className);
        return compiled;
    }

    /** Stores the class files {@code cooked} made, the pipeline's class ({@code className}) first, as the store reads them. */
    private static void storeClasses(ClassFileCache store, String codeKey, SimpleCompiler cooked, String className) {
        Map<String, byte[]> made = cooked.getBytecodes();
        if (made.get(className) != null) {
            Map<String, byte[]> classes = new LinkedHashMap<>();
            classes.put(className, made.get(className));
            classes.putAll(made);
            store.store(codeKey, classes);
        }
    }

    /** Compiles without the shared cache, so that the class can be unloaded once unused (tuning tries thousands). */
    public static Class<? extends PipelineCode> compileUncached(String className, String source) {
        COMPILES.incrementAndGet();
        return pipelineClass(cooked(className, source), className);
    }

    private static SimpleCompiler cooked(String className, String source) {
        try {
            SimpleCompiler c = new SimpleCompiler();
            c.setParentClassLoader(JavaCompiler.class.getClassLoader());
            c.cook(source);
            return c;
        } catch (Exception e) {
            // one line: the source itself is what EXPLAIN CODE shows
            String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new IllegalStateException("generated code of " + className + " does not compile: " + why, e);
        }
    }

    private static Class<? extends PipelineCode> pipelineClass(SimpleCompiler cooked, String className) {
        try {
            return cooked.getClassLoader().loadClass(className).asSubclass(PipelineCode.class);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("generated code of " + className + " declares no class of that name", e);
        }
    }

    /**
     * Compiles {@code source} and throws the class away, without counting it: the first compile of a process (Janino's
     * classes initialized, its code run once) done ahead of the first query (see {@code exec.WarmUp}). Where earlier
     * processes stored the class ({@link ClassFileCache}), it is defined from there instead, as the first query's
     * classes likely will be; one compiled here is stored. Returns whether it compiled or was defined.
     */
    public static boolean warmUp(String className, String source) {
        try {
            ClassFileCache store = ClassFileCache.forProcess();
            String key = store == null ? null : codeKey(source);
            Map<String, byte[]> stored = store == null ? null : store.load(key);
            if (stored != null && StoredClasses.define(stored) != null) {
                return true;
            }
            SimpleCompiler c = new SimpleCompiler();
            c.setParentClassLoader(JavaCompiler.class.getClassLoader());
            c.cook(source);
            c.getClassLoader().loadClass(className);
            if (store != null) {
                storeClasses(store, key, c, className);
            }
            return true;
        } catch (Exception e) {
            return false; // the queries compile their own classes and report what fails
        }
    }

    /** Classes compiled in this process so far (cached or not): what a query's constants must never add to. */
    public static long compiles() {
        return COMPILES.get();
    }

    /** Empties the class cache (a measurement of what the cache saves compiles every class again after it). */
    public static void clearCache() {
        CACHE.clear();
    }

    /** Makes {@code pipelineClass} the class of {@code codeKey} in this process (tests of stored classes). */
    static void remember(String codeKey, Class<? extends PipelineCode> pipelineClass) {
        CACHE.put(codeKey, pipelineClass);
    }

    /** The class compiled before from code equal to {@code source}'s ({@link #codeKey}), else null. */
    public static Class<? extends PipelineCode> cached(String source) {
        return CACHE.get(codeKey(source));
    }

    /**
     * The source without its comments (the genome line among them) and with its class's name, which numbers the
     * pipeline in its query, as one placeholder: equal for variants that compile to the same class, for queries that
     * differ only in their constants, which the code reads from an array bound at run time, and for pipelines of one
     * query that do the same over other tables (a join of many tables of one shape: 52 classes for the 64 pipelines
     * of a chain of 64 ten-row tables).
     */
    public static String codeKey(String source) {
        String code = io.tessera.backend.GeneratedSource.withoutComments(source);
        java.util.regex.Matcher declared = CLASS_NAME.matcher(code);
        return declared.find() ? code.replaceAll("\\b" + declared.group(1) + "\\b", "Pipeline") : code;
    }

    /** The name a generated class is declared with (the emitter's names are letters and digits). */
    private static final java.util.regex.Pattern CLASS_NAME = java.util.regex.Pattern.compile(
            "public final class (\\w+) extends ");
}
