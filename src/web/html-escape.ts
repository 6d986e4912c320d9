/** Escapes text for HTML element content and quoted attribute values: every `& < > " '` becomes a character reference. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
