import v8 from 'node:v8';

/** The V8 option that sets how far the old generation may grow past the live heap before the next full collection. */
const FLAG = '--heap-growing-percent';

/**
 * Sets V8's old-generation growth for this process to `percent` over the live heap (1 + percent/100 times it) and
 * returns the percent in force, or null when V8 keeps its own: `percent` 0, or a `--heap-growing-percent` given to
 * node on its command line (`execArgv`), which wins. V8's own factor reaches 4 on a machine with 2 GB or more,
 * so a server with 75 MB live let its old generation grow to about 220 MB of garbage between collections; the growth
 * is read at every collection, so setting it once the process runs takes effect at the next one. It is no cap: a
 * heap whose live data grows still grows, up to Node's own limit (`--max-old-space-size`).
 */
export function applyHeapGrowth(percent: number, execArgv: readonly string[] = process.execArgv): number | null {
  const own = execArgv.find((a) => a.replaceAll('_', '-').startsWith(`${FLAG}=`));
  if (own !== undefined) return Number(own.slice(own.indexOf('=') + 1));
  if (percent === 0) return null;
  v8.setFlagsFromString(`${FLAG}=${percent}`);
  return percent;
}
