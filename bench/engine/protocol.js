// The version of the engine server's JSON-lines protocol (see server.js), spoken by server and client.
export const PROTOCOL = 1;
