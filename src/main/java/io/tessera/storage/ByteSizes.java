package io.tessera.storage;

import java.util.Locale;

/** Sizes in bytes as people read them: {@code 1023 B}, {@code 1.5 KiB}, {@code 12.3 MiB}, ... */
public final class ByteSizes {

    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB"};

    private ByteSizes() {
    }

    /** {@code bytes} in the largest binary unit that leaves at least 1, to a tenth; under 1 KiB as {@code N B}. */
    public static String text(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u + 1 < UNITS.length) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }
}
