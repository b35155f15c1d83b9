package io.tessera.spark;

import io.tessera.Tessera;
import io.tessera.exec.Device;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The databases this JVM (a driver or an executor) has open, one per directory and device, kept open for the
 * JVM's life: each task of a job reads its part through the same open database instead of reopening it.
 */
final class OpenDatabases {

    private static final Map<String, Tessera> OPEN = new ConcurrentHashMap<>();

    private OpenDatabases() {
    }

    static Tessera get(String directory, Device device) {
        Path dir = Path.of(directory);
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("no Tessera database directory " + directory + " on this machine ("
                    + hostName() + ")");
        }
        return OPEN.computeIfAbsent(dir.toAbsolutePath().normalize() + "\u0000" + device,
                k -> Tessera.open(dir, device));
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown host";
        }
    }
}
