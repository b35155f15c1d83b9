package io.tessera.backend.jvm.gen;

import java.util.Map;

/**
 * The class loader of one pipeline's classes defined from stored class files ({@link ClassFileCache}), as Janino's
 * own loader holds the classes it compiled: one loader per pipeline class, whose parent is Tessera's, so that an
 * unused pipeline class can be unloaded with it.
 */
final class StoredClasses extends ClassLoader {

    private final Map<String, byte[]> classes;

    private StoredClasses(Map<String, byte[]> classes) {
        super(JavaCompiler.class.getClassLoader());
        this.classes = classes;
    }

    /**
     * The pipeline class among {@code classes} (the first), defined, verified and initialized; null when the bytes
     * do not make a valid pipeline class (a damaged file is compiled again, never run).
     */
    static Class<? extends PipelineCode> define(Map<String, byte[]> classes) {
        String name = classes.keySet().iterator().next();
        try {
            Class<?> c = Class.forName(name, true, new StoredClasses(classes));
            return PipelineCode.class.isAssignableFrom(c) ? c.asSubclass(PipelineCode.class) : null;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] bytes = classes.get(name);
        if (bytes == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, bytes, 0, bytes.length);
    }
}
