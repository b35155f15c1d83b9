package io.tessera.tune;

/**
 * A backend's maker of tuning targets, found through {@link java.util.ServiceLoader}: a backend whose targets run
 * queries through the engine (which itself reads profiles from this package) registers here, so that this package
 * does not depend on the engine.
 */
public interface TargetProvider extends Targets.Factory {

    /** The backend whose devices this provider's targets run on ({@link TuningDevice#backend()}). */
    String backend();
}
