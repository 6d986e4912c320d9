import type { TopLevelSpec } from 'vega-lite';
import type { Figure } from '../domain/dashboards/dashboard-service.ts';

// Rendering a chart costs tens of milliseconds of CPU (Vega's dataflow and layout), far more than reading a
// dashboard's counts: charts are kept by their exact spec, data included, so an unchanged figure is drawn once.
const CACHE_SIZE = 256;
const drawn = new Map<string, Promise<string>>();

const WIDTH = 520;
type Row = Record<string, string | number | null>;

function records(figure: Figure): Row[] {
  return figure.rows.map((r) => Object.fromEntries(figure.columns.map((c, i) => [c, r[i] ?? null])));
}

/** Long form of some columns of a figure: one record per row and column, `{ key: …, [name]: column, [value]: cell }`. */
function longForm(figure: Figure, key: string[], columns: string[], name: string, value: string): Row[] {
  return records(figure).flatMap((r) => columns.map((c) => ({ ...Object.fromEntries(key.map((k) => [k, r[k]!])), [name]: c, [value]: r[c]! })));
}

// The Vega-Lite spec of each figure, drawn from its table; titles and descriptions are the page's, not the chart's.
function specOf(figure: Figure): TopLevelSpec {
  const c = figure.columns;
  // aria: false hides the marks and guides from assistive technology: the chart is one image named by its title and
  // description, and the table beside it gives every value.
  // Numbers on a value axis as people write them (1,500; 2.5; 0), never as Vega's default for an empty domain (0.000000).
  const base = { width: WIDTH, config: { aria: false, font: 'sans-serif', axis: { labelLimit: 180 }, axisQuantitative: { format: ',~r' } } } as const;
  switch (figure.id) {
    case 'status':
      return { ...base, data: { values: records(figure) }, mark: 'bar',
        encoding: { y: { field: c[0]!, type: 'nominal', sort: null }, x: { field: c[1]!, type: 'quantitative' } } };
    case 'submissions':
      return { ...base, height: 200, data: { values: records(figure) }, mark: 'bar',
        encoding: { x: { field: c[0]!, type: 'ordinal', axis: { labelAngle: -60 } }, y: { field: c[1]!, type: 'quantitative' } } };
    case 'cycle':
      return { ...base, height: 220, data: { values: longForm(figure, [c[0]!, c[1]!], [c[3]!, c[4]!], 'Measure', 'Days') },
        mark: { type: 'line', point: true },
        encoding: { x: { field: c[0]!, type: 'ordinal' }, y: { field: 'Days', type: 'quantitative' }, color: { field: c[1]!, type: 'nominal' },
          strokeDash: { field: 'Measure', type: 'nominal' } } };
    case 'aging':
      return { ...base, data: { values: longForm(figure, [c[0]!], c.slice(1), 'Time in status', 'Projects') }, mark: 'bar',
        encoding: { y: { field: c[0]!, type: 'nominal', sort: null }, x: { field: 'Projects', type: 'quantitative', stack: 'zero' },
          color: { field: 'Time in status', type: 'ordinal', sort: c.slice(1) } } };
    case 'deadlines':
      return { ...base, height: 200, data: { values: longForm(figure, [c[0]!], c.slice(2), 'Outcome', 'Deadlines') }, mark: 'bar',
        encoding: { x: { field: c[0]!, type: 'ordinal' }, y: { aggregate: 'sum', field: 'Deadlines', type: 'quantitative' },
          color: { field: 'Outcome', type: 'nominal', sort: c.slice(2) } } };
    case 'reviewers':
      return { ...base, data: { values: longForm(figure, [c[0]!], [c[1]!, c[2]!], 'Measure', 'Projects or moves') }, mark: 'bar',
        encoding: { y: { field: c[0]!, type: 'nominal', sort: null }, yOffset: { field: 'Measure', type: 'nominal' },
          x: { field: 'Projects or moves', type: 'quantitative' }, color: { field: 'Measure', type: 'nominal' } } };
  }
}

// Vega and Vega-Lite are loaded at the first chart, not at start: 19 MB of a server's memory (8 MB of its live heap)
// that an instance nobody asks for a dashboard never needs (docs/performance.md, "Memory on PostgreSQL").
let charting: Promise<[typeof import('vega'), typeof import('vega-lite')]> | null = null;

async function draw(spec: TopLevelSpec, figure: Figure, idPrefix: string): Promise<string> {
  charting ??= Promise.all([import('vega'), import('vega-lite')]);
  const [vega, { compile }] = await charting;
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  let markup: string;
  try {
    markup = await view.toSVG();
  } finally {
    view.finalize();
  }
  const title = `${idPrefix}-title`;
  const desc = `${idPrefix}-desc`;
  // Vega gives its mark containers graphics roles even with aria off; inside one image they would be images without
  // names, so the roles go and the chart is read as its title and description. Vega writes every text and attribute
  // value escaped; the title and description are escaped here the same way.
  return markup.replace(/ role="graphics-[a-z]+"| aria-roledescription="[^"]*"/g, '').replace(/^<svg /, `<svg role="img" aria-labelledby="${title}" aria-describedby="${desc}" `)
    .replace(/^(<svg[^>]*>)/, `$1<title id="${title}">${escapeXml(figure.title)}</title><desc id="${desc}">${escapeXml(figure.description)}</desc>`);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * A figure's chart as SVG markup, drawn by Vega-Lite on the server: an image (role img) named by its <title> and
 * described by its <desc>, with no script and no style attributes (the pages' CSP allows neither). `idPrefix` keeps
 * the ids of several charts on one page apart.
 */
export async function chartSvg(figure: Figure, idPrefix: string): Promise<string> {
  const spec = specOf(figure);
  const key = JSON.stringify([spec, figure.title, figure.description, idPrefix]);
  let svg = drawn.get(key);
  if (svg) {
    drawn.delete(key);
  } else {
    svg = draw(spec, figure, idPrefix);
    svg.catch(() => drawn.delete(key));
  }
  // Most recently used last: the first key is the one to drop.
  drawn.set(key, svg);
  if (drawn.size > CACHE_SIZE) drawn.delete(drawn.keys().next().value!);
  return svg;
}
