// The version of the engine server's JSON-lines protocol (see server.js), spoken by server and client.
export const PROTOCOL = 2;

/**
 * The environment variable naming the temp directory a client made for one engine server (and
 * gave it as TMPDIR): everything the server puts in the temp dir lands there, the server removes
 * it when it stops, and the client removes it when the server dies without doing so.
 */
export const ENGINE_TMP_ENV = 'SQLITE_BENCH_ENGINE_TMP';
