/**
 * The library that generated code calls by its full names: SQL arithmetic, casts and dates
 * ({@link io.tessera.backend.jvm.lib.Runtime}), string functions ({@link io.tessera.backend.jvm.lib.TextRuntime}),
 * hashing ({@link io.tessera.backend.jvm.lib.Hashing}) and the vectorized filter
 * ({@link io.tessera.backend.jvm.lib.VectorFilter}). It uses nothing else of the backend.
 */
package io.tessera.backend.jvm.lib;
