/** Lines of a server log (pino JSON) at level error or fatal: a 5xx answer or a crash leaves one. */
export function serverErrors(log: string): string[] {
  return log.split('\n').filter((line) => /^\{.*"level":(50|60)[,}]/.test(line)).map((line) => line.slice(0, 600));
}
