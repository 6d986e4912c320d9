import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/** The better-sqlite3 package for a Node major version: 13 (Node-API) from Node 22 on, 12 on Node 20. */
export function sqliteBindingPackage(nodeVersion: string): 'better-sqlite3' | 'better-sqlite3-node20' {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

/**
 * The better-sqlite3 `Database` class for the running Node; both packages have the same API (docs/dependencies.md).
 * 12.x wraps statements in `node::ObjectWrap`, which aborts Node 24 when a statement is collected; 13 uses Node-API
 * and fixes that, but crashes on Node 20. So package.json installs 12 under the alias `better-sqlite3-node20` and 13
 * as the optional `better-sqlite3` (skipped on Node 20), and this picks one once, synchronously, at load.
 */
export const SqliteBinding: typeof BetterSqlite3 = loadBinding();

function loadBinding(): typeof BetterSqlite3 {
  const name = sqliteBindingPackage(process.versions.node);
  try {
    return createRequire(import.meta.url)(name) as typeof BetterSqlite3;
  } catch (error) {
    // An optional dependency npm skipped (say, an install made under Node 20 and run under Node 24) must not fall back
    // to the binding that aborts: say what to do.
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') {
      throw new Error(`apas needs the package ${name} on Node ${process.versions.node}; run \`npm ci\` again with this Node version`, { cause: error });
    }
    throw error;
  }
}
