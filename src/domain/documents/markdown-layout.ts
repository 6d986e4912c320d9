import { Lexer, type Token, type Tokens } from 'marked';

/** A run of text in one style. */
export interface Run { text: string; bold: boolean; italic: boolean }

/** One block of a document's layout: what the PDF renderer draws, each tagged for its structure. */
export type Block =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'list'; ordered: boolean; start: number; items: { runs: Run[]; depth: number }[] }
  | { kind: 'table'; header: string[]; rows: string[][] }
  | { kind: 'rule' };

/**
 * A template's output (a small Markdown) as blocks: headings, paragraphs, bold and italic, bullet and numbered lists
 * (nested ones indented), tables and rules. Anything else Markdown knows is shown as its text: a link as its words, an
 * image as its alt text (never fetched), HTML and code as written.
 */
export function layoutOf(markdown: string): Block[] {
  return blocksOf(new Lexer({ gfm: true }).lex(markdown));
}

function blocksOf(tokens: Token[]): Block[] {
  const out: Block[] = [];
  for (const t of tokens) {
    switch (t.type) {
      case 'space': break;
      case 'heading': out.push({ kind: 'heading', level: (t as Tokens.Heading).depth, runs: runsOf((t as Tokens.Heading).tokens) }); break;
      case 'paragraph': out.push({ kind: 'paragraph', runs: runsOf((t as Tokens.Paragraph).tokens) }); break;
      case 'list': out.push(listOf(t as Tokens.List)); break;
      case 'table': {
        const table = t as Tokens.Table;
        out.push({ kind: 'table', header: table.header.map((c) => plain(runsOf(c.tokens))), rows: table.rows.map((r) => r.map((c) => plain(runsOf(c.tokens)))) });
        break;
      }
      case 'hr': out.push({ kind: 'rule' }); break;
      case 'blockquote': out.push(...blocksOf((t as Tokens.Blockquote).tokens)); break;
      default: if (t.raw.trim() !== '') out.push({ kind: 'paragraph', runs: [{ text: t.raw.trim(), bold: false, italic: false }] });
    }
  }
  return out;
}

function listOf(list: Tokens.List, depth = 0, into: { runs: Run[]; depth: number }[] = []): Block & { kind: 'list' } {
  for (const item of list.items) {
    const runs: Run[] = [];
    for (const t of item.tokens) {
      if (t.type === 'list') continue;
      if (runs.length > 0) runs.push({ text: ' ', bold: false, italic: false });
      runs.push(...('tokens' in t && t.tokens ? runsOf(t.tokens) : [{ text: t.raw.trim(), bold: false, italic: false }]));
    }
    into.push({ runs, depth });
    for (const t of item.tokens) if (t.type === 'list') listOf(t as Tokens.List, depth + 1, into);
  }
  return { kind: 'list', ordered: list.ordered, start: typeof list.start === 'number' ? list.start : 1, items: into };
}

function runsOf(tokens: Token[] | undefined, bold = false, italic = false): Run[] {
  const out: Run[] = [];
  for (const t of tokens ?? []) {
    switch (t.type) {
      case 'strong': out.push(...runsOf((t as Tokens.Strong).tokens, true, italic)); break;
      case 'em': out.push(...runsOf((t as Tokens.Em).tokens, bold, true)); break;
      case 'br': out.push({ text: '\n', bold, italic }); break;
      case 'image': out.push({ text: (t as Tokens.Image).text, bold, italic }); break;
      case 'escape': out.push({ text: (t as Tokens.Escape).text, bold, italic }); break;
      case 'codespan': out.push({ text: (t as Tokens.Codespan).text, bold, italic }); break;
      case 'html': out.push({ text: t.raw, bold, italic }); break;
      default:
        if ('tokens' in t && Array.isArray(t.tokens) && t.tokens.length > 0) out.push(...runsOf(t.tokens, bold, italic));
        else out.push({ text: 'text' in t && typeof t.text === 'string' ? t.text : t.raw, bold, italic });
    }
  }
  // A soft line break inside a paragraph is a space, as in any Markdown reader.
  return merge(out.map((r) => ({ ...r, text: r.text === '\n' ? '\n' : decodeEntities(r.text.replace(/\s*\n\s*/g, ' ')) })));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

// The lexer keeps character references as written (an HTML renderer would pass them on); a PDF shows the character.
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return ENTITIES[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
  });
}

function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const r of runs) {
    const last = out[out.length - 1];
    if (last && last.bold === r.bold && last.italic === r.italic) last.text += r.text;
    else if (r.text !== '') out.push({ ...r });
  }
  return out;
}

/** The text of runs without their styles. */
export function plain(runs: Run[]): string {
  return runs.map((r) => r.text).join('');
}
