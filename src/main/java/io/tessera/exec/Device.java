package io.tessera.exec;

import java.util.Locale;

/** Where queries run: the JVM backend on all cores, the GPU, or the GPU when there is one. */
public enum Device {
    CPU, GPU, AUTO;

    public static Device parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown device '" + s + "' (expected gpu, cpu or auto)");
        }
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
