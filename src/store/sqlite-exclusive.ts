import { SqliteBinding } from './sqlite-binding.ts';

/** How often a wait for the lock asks again: a try, never SQLite's busy wait, which would stop the event loop. */
const LOCK_RETRY_MS = 100;

/**
 * The file beside a SQLite database whose lock `exclusively(name)` takes, one per name (`apas.db-lock-apas-demo-seeding`);
 * it holds no data, and may be removed while no apas runs on the database.
 */
export function exclusiveLockFile(file: string, name: string): string {
  return `${file}-lock-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60)}`;
}

/**
 * Exclusive work on SQLite: an exclusive transaction held on a connection of its own to a small file beside the
 * database (exclusiveLockFile, one per name), so that processes (and stores) on one database file take turns, as PostgreSQL's
 * advisory lock makes instances do. Not the database file itself: the work writes to it, which a lock held there would
 * block. The operating system drops the lock with a process that dies, so none is left behind. Work holding a lock
 * must not ask for the same name again. An in-memory database is one connection's alone: its work just runs.
 */
export function sqliteLocker(file: string): <T>(name: string, work: () => Promise<T>) => Promise<T> {
  if (file === ':memory:' || file === '') return (_name, work) => work();
  return async (name, work) => {
    const lock = new SqliteBinding(exclusiveLockFile(file, name));
    try {
      lock.pragma('busy_timeout = 0');
      for (;;) {
        try {
          lock.exec('begin exclusive');
          break;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
          await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
        }
      }
      try {
        return await work();
      } finally {
        lock.exec('rollback');
      }
    } finally {
      lock.close();
    }
  };
}
