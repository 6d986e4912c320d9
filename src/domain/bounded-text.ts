/**
 * `text` cut to at most `max` characters (UTF-16 units), ending in an ellipsis when cut; a surrogate pair is never
 * split. Messages and log lines quote what clients sent, so they are bounded here whatever its size.
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
