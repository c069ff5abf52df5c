// Where an operation's instructions go: callgrind's dumps name, for every function that ran, its
// object file (ob=) and its symbol (fn=), and this table gives each (object, symbol) a component.
// The rules are tried in order and the first that matches wins; a symbol pattern absent means any
// symbol of that object. Written from the symbols of real dumps (better-sqlite3-multiple-ciphers
// 12.x with SQLite3 Multiple Ciphers 2.x, Node 20; docs/counting.md#components): the addon holds
// SQLite, the cipher and the binding in one object, so they are told apart by symbol: the
// binding's C++ (demangled, so with a parameter list), SQLite3 Multiple Ciphers' codecs and their
// primitives by name, and every other C function of the addon is SQLite's (the amalgamation's
// static functions have no common prefix). node:sqlite's SQLite lives in the node binary: its
// C symbols there, but for the runtime's own (V8's builtins, libuv, ICU), are SQLite's.

/** The components, in the order the summary lists them. */
export const COMPONENTS = /** @type {const} */ (['sqlite', 'cipher', 'runtime', 'binding', 'libc', 'other']);

/** @typedef {typeof COMPONENTS[number]} Component */

/** What each component is called in the summary. */
export const COMPONENT_LABELS = /** @type {const} */ ({
  sqlite: 'SQLite',
  cipher: 'cipher',
  runtime: 'runtime',
  binding: 'binding',
  libc: 'libc',
  other: 'other',
});

/**
 * The native components: machine code that runs the same whatever V8's heap looks like, so their
 * counts repeat closer than the runtime's (docs/counting.md#components).
 * @type {readonly Component[]}
 */
export const NATIVE_COMPONENTS = Object.freeze(['sqlite', 'cipher', 'binding', 'libc']);

/**
 * The driver's addon: better-sqlite3's and better-sqlite3-multiple-ciphers' (SQLite statically linked), compiled
 * (build/Release/better_sqlite3.node) or the prebuilt binary 13.x bundles (prebuilds/linux-x64.node: Node 24's in CI).
 */
const ADDON = /(\/better_sqlite3|\/better-sqlite3(-multiple-ciphers)?\/prebuilds\/[^/]+)\.node$/;
/** The node binary: V8, Node, libuv, ICU, and node:sqlite's SQLite. */
const NODE = /\/(node|nodejs)$/;

/** SQLite3 Multiple Ciphers' codecs (sqlite3mc…, its VFS shim mcIo… and mcVfs…, each cipher's …Cipher functions) and the primitives they call. */
const CIPHER_SYMBOL =
  /^(sqlite3mc|mc[A-Z]|[A-Za-z]+(AES128|AES256|Aegis|Ascon128|ChaCha20|RC4|SQLCipher)Cipher$|chacha20|poly1305|sha(1|256|512)_|pbkdf2|hmac|sqlcipher|MD5_|body$|_encrypt$|Rijndael|aes|ascon|Ascon|aegis|_?argon2|blake2b)/;

/** The node binary's own C symbols: V8's builtins (the interpreter's bytecode handlers among them), libuv, ICU, Node-API. */
const RUNTIME_C_SYMBOL = /^(Builtins_|uv_|uv__|u_|ucol_|ubrk_|unorm2_|napi_|node_|v8_|_Z|OPENSSL_|CRYPTO_)/;

/**
 * @typedef {object} Rule
 * @property {RegExp} object matches the object file's path (callgrind's ob=)
 * @property {RegExp} [symbol] matches the function's name (fn=, demangled); absent: any
 * @property {Component} component
 */

/** @type {readonly Rule[]} */
const COMPONENT_RULES = Object.freeze([
  { object: ADDON, symbol: /\(/, component: 'binding' }, // C++: Statement::JS_all(...), Data::GetValueJS(...)
  { object: ADDON, symbol: CIPHER_SYMBOL, component: 'cipher' },
  { object: ADDON, component: 'sqlite' },
  { object: NODE, symbol: /^node::sqlite::/, component: 'binding' }, // node:sqlite's C++ glue
  { object: NODE, symbol: /\(|::/, component: 'runtime' },
  { object: NODE, symbol: RUNTIME_C_SYMBOL, component: 'runtime' },
  { object: NODE, component: 'sqlite' },
  { object: /^\?\?\?$/, component: 'runtime' }, // code generated at run time: V8's
  { object: /\/(libc|libm|ld-linux[^/]*|libstdc\+\+|libgcc_s|libpthread|count-malloc)[.-][^/]*$/, component: 'libc' },
  { object: /./, component: 'other' },
]);

/**
 * Calls charged to their caller's component: a C library function called directly by the runtime's
 * code (V8's string table comparing a row's keys with memcmp, V8 and Node allocating) is the
 * runtime's, with whatever the C library runs inside that call; the C library called by SQLite, the
 * cipher or the binding stays `libc`. Its cost follows where V8 put its objects, which moves with
 * the heap's layout as the runtime's does (docs/counting.md#components). Only calls whose whole
 * inclusive cost is the callee's component are charged (callgrind.js componentsOfDump).
 * @type {readonly { caller: Component, callee: Component }[]}
 */
export const CHARGED_TO_CALLER = Object.freeze([{ caller: 'runtime', callee: 'libc' }]);

/** The component of a function of an object file: the first rule that matches. */
export function componentOf(/** @type {string} */ object, /** @type {string} */ symbol) {
  const fn = symbol.replace(/'\d+$/, ''); // callgrind's mark of a recursive call's depth: sqlite3VdbeExec'2
  for (const r of COMPONENT_RULES) if (r.object.test(object) && (!r.symbol || r.symbol.test(fn))) return r.component;
  return 'other';
}
