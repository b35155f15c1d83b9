/**
 * What a query uses to choose its genomes, below the engine: the {@link io.tessera.profile.GenomeChooser} picks
 * each pipeline's genome from the device's {@link io.tessera.profile.Profile} (read through the
 * {@link io.tessera.profile.ProfileStore}) where it fits, else the {@link io.tessera.profile.DefaultGenomes}; a
 * device's {@link io.tessera.profile.DeviceInfo} gives the fingerprint its profile is stored under.
 *
 * <p>Searching for better genomes and writing them into profiles is {@code io.tessera.tune}'s work, a layer above
 * the engine; this package imports only {@code variant}, {@code plan} and below.
 */
package io.tessera.profile;
