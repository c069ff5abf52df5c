// node:sqlite (Node 22.5 and later) has no types in @types/node 18, the Node API the project is
// checked against (tsconfig.json). This declares the part bench/engine/load-drivers.js uses: a
// DatabaseSync opened on a file, used as bench/engine/database.js's Conn. Shapes as in Node's
// documentation; nothing else of the module is declared, so using more of it is a type error.
declare module 'node:sqlite' {
  type SQLInputValue = null | number | bigint | string | NodeJS.ArrayBufferView;
  type SQLOutputValue = null | number | bigint | string | Uint8Array;

  export class StatementSync {
    run(...params: SQLInputValue[]): { changes: number | bigint; lastInsertRowid: number | bigint };
    all(...params: SQLInputValue[]): Record<string, SQLOutputValue>[];
    get(...params: SQLInputValue[]): Record<string, SQLOutputValue> | undefined;
  }

  export class DatabaseSync {
    constructor(path: string);
    exec(sql: string): void;
    prepare(sql: string): StatementSync;
    close(): void;
  }
}
