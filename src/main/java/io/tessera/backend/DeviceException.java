package io.tessera.backend;

/**
 * A device other than the host failed, or cannot give a result that only the host gives (a key outside the range
 * its code was made for, a table too full): the executor runs the whole query on the host instead, and says why
 * in one line ({@link #reason()}). A device's own failures (a driver call, a compile) extend it.
 */
public class DeviceException extends RuntimeException {

    public DeviceException(String message) {
        super(message);
    }

    public DeviceException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A failure the device expects and reports without a stack trace (a result only the host gives). */
    protected DeviceException(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
        super(message, cause, enableSuppression, writableStackTrace);
    }

    /** Why the device was not used, in one line: the first line of the message unless a device says better. */
    public String reason() {
        return firstLine(this);
    }

    /** One line on why a device was not used: a device's {@link #reason()}, else the first line of the message. */
    public static String describe(Throwable e) {
        return e instanceof DeviceException d ? d.reason() : firstLine(e);
    }

    /** The first line of {@code e}'s message, or its class's simple name when it has none. */
    protected static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
