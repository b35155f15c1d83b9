package io.tessera.jdbc;

import io.tessera.exec.Device;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Properties;

/**
 * A connection's address, {@code jdbc:tessera:<database directory>[?device=cpu|gpu|auto][&create=true]}, with the
 * connection properties of the same names (the URL's win): where the database is, where its queries run, and
 * whether an empty database is made when the directory holds none.
 */
record JdbcUrl(Path directory, Device device, boolean create) {

    static final String PREFIX = "jdbc:tessera:";
    static final String DEVICE = "device";
    static final String CREATE = "create";

    static boolean accepts(String url) {
        return url != null && url.startsWith(PREFIX);
    }

    static JdbcUrl parse(String url, Properties info) throws SQLException {
        String rest = url.substring(PREFIX.length());
        Properties props = new Properties();
        if (info != null) {
            props.putAll(info);
        }
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String pair : rest.substring(q + 1).split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq < 0) {
                    throw new SQLException("URL parameter '" + pair + "' has no value (" + DEVICE + "=cpu|gpu|auto, "
                            + CREATE + "=true|false)", "08001");
                }
                props.setProperty(pair.substring(0, eq).toLowerCase(Locale.ROOT), pair.substring(eq + 1));
            }
            rest = rest.substring(0, q);
        }
        for (String key : props.stringPropertyNames()) {
            // user and password come from tools that always send them; an embedded database has no accounts
            if (!key.equals(DEVICE) && !key.equals(CREATE) && !key.equals("user") && !key.equals("password")) {
                throw new SQLException("unknown connection property '" + key + "' (" + DEVICE + ", " + CREATE + ")",
                        "08001");
            }
        }
        if (rest.isEmpty()) {
            throw new SQLException("the URL names no database directory: " + PREFIX + "<directory>", "08001");
        }
        Path dir;
        try {
            dir = Path.of(rest);
        } catch (InvalidPathException e) {
            throw new SQLException("not a directory name: '" + rest + "': " + e.getMessage(), "08001", e);
        }
        Device device;
        try {
            device = Device.parse(props.getProperty(DEVICE, "cpu"));
        } catch (IllegalArgumentException e) {
            throw new SQLException(e.getMessage(), "08001", e);
        }
        String create = props.getProperty(CREATE, "false").toLowerCase(Locale.ROOT);
        if (!create.equals("true") && !create.equals("false")) {
            throw new SQLException(CREATE + " is true or false, not '" + create + "'", "08001");
        }
        return new JdbcUrl(dir, device, create.equals("true"));
    }
}
