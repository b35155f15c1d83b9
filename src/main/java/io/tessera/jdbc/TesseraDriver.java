package io.tessera.jdbc;

import io.tessera.Tessera;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver: {@code jdbc:tessera:<database directory>[?device=cpu|gpu|auto]} opens the database in process
 * (Tessera is embedded; there is no server). Registered with {@link DriverManager} through
 * {@code META-INF/services/java.sql.Driver} and when this class is loaded.
 */
public final class TesseraDriver implements Driver {

    static final int MAJOR_VERSION = 0;
    static final int MINOR_VERSION = 1;
    static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION;
    static final String NAME = "Tessera JDBC driver";

    static {
        try {
            DriverManager.registerDriver(new TesseraDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null; // the contract: another driver's URL
        }
        JdbcUrl address = JdbcUrl.parse(url, info);
        Tessera tessera;
        try {
            tessera = address.create() ? Tessera.openOrCreate(address.directory(), address.device())
                    : Tessera.open(address.directory(), address.device());
        } catch (RuntimeException e) {
            throw new SQLException("cannot open " + url + ": " + JdbcErrors.message(e), "08001", e);
        }
        return new TesseraConnection(tessera, url);
    }

    @Override
    public boolean acceptsURL(String url) {
        return JdbcUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        Properties given = info == null ? new Properties() : info;
        DriverPropertyInfo device = new DriverPropertyInfo(JdbcUrl.DEVICE, given.getProperty(JdbcUrl.DEVICE, "cpu"));
        device.description = "where queries run: cpu (the JVM on all cores), gpu, or auto (the GPU when there is one)";
        device.choices = new String[] {"cpu", "gpu", "auto"};
        DriverPropertyInfo create = new DriverPropertyInfo(JdbcUrl.CREATE, given.getProperty(JdbcUrl.CREATE, "false"));
        create.description = "create an empty database when the directory holds none";
        create.choices = new String[] {"true", "false"};
        return new DriverPropertyInfo[] {device, create};
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not a full SQL-92 entry-level implementation, which is what this flag claims. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw JdbcErrors.unsupported("getParentLogger (the driver logs nothing)");
    }
}
