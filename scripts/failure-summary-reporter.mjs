/**
 * A node:test reporter that prints nothing on a green run and, after a red one, one short block per failed
 * test (file, path of names, the first lines of the error). The TAP output of a long run puts a failure far
 * from its end; CI logs are often read from the end, so the summary repeats what failed there.
 * Plain JavaScript: node loads reporters before tsx's hooks are in place.
 */
import path from 'node:path';

const ERROR_LINES = 12;

/**
 * Reporter entry point: consumes the run's events and yields the summary once they end.
 * @param {AsyncIterable<{ type: string, data: any }>} source
 */
export default async function* failureSummary(source) {
  const failures = [];
  const open = [];
  for await (const event of source) {
    if (event.type === 'test:start') open[event.data.nesting] = event.data.name;
    if (event.type !== 'test:fail') continue;
    const { details, nesting, name, file } = event.data;
    const error = details.error;
    // A suite fails when one of its tests fails; that test is listed on its own.
    if (error?.failureType === 'subtestsFailed') continue;
    failures.push({ file: file ? path.relative(process.cwd(), file) : '?', path: [...open.slice(0, nesting), name], message: describe(error) });
  }
  if (failures.length === 0) return;
  const lines = [`\n==> ${failures.length} failed test(s):`];
  for (const f of failures) {
    lines.push(`--- ${f.file}`, `    ${f.path.join(' > ')}`);
    for (const line of f.message.split('\n').slice(0, ERROR_LINES)) lines.push(`    ${line}`);
  }
  yield `${lines.join('\n')}\n`;
}

/** The message and stack of the error itself, not of the runner's wrapper around it. */
function describe(error) {
  if (!error) return '(no error reported)';
  const inner = error.cause instanceof Error ? error.cause : error;
  return inner.stack ?? inner.message ?? String(inner);
}
