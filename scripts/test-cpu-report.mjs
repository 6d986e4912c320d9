/**
 * Preloaded (`--import`) by `npm test` into node's test runner, which passes it on to the process of every test file:
 * when a test file's process exits, writes the CPU time it used, its own and that of the processes it spawned and
 * waited for (servers, `apas` commands, tsx), and its wall time, to APAS_TEST_CPU_DIR for scripts/run-tests.ts to
 * rank. Plain JavaScript so that it costs nothing to load; the runner process itself writes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.APAS_TEST_CPU_DIR;
// node's test runner marks the processes it starts for test files with NODE_TEST_CONTEXT ("child", "child-v8").
if (dir && process.env.NODE_TEST_CONTEXT?.startsWith('child')) {
  process.on('exit', () => {
    const file = path.relative(process.cwd(), process.argv[1] ?? 'unknown').split(path.sep).join('/');
    const { self, children } = cpuSeconds();
    const report = { file, self, children, wall: process.uptime() };
    try {
      fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(report));
    } catch {
      // The report is for information only; it must never fail a test file.
    }
  });
}

/**
 * CPU seconds (user + system) of this process and of its children that ended and were waited for (with theirs), from
 * /proc/self/stat (Linux; USER_HZ is 100 on every Linux ABI); elsewhere only this process's, from process.cpuUsage().
 */
function cpuSeconds() {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // After the command name in parentheses (which may hold spaces): state, ppid, …; utime is field 14 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
    const [utime = 0, stime = 0, cutime = 0, cstime = 0] = fields.slice(11, 15);
    return { self: (utime + stime) / 100, children: (cutime + cstime) / 100 };
  } catch {
    const usage = process.cpuUsage();
    return { self: (usage.user + usage.system) / 1e6, children: null };
  }
}
