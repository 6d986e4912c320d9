import type { DocumentRenderer, RenderedDocument } from '../../model/document.ts';
import type { StoreReader } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import { describeLiquidError, documentLiquid, TEMPLATE_LIMITS } from './document-liquid.ts';
import { logoBytes } from './document-logo.ts';
import { findTemplate } from '../document-templates.ts';
import { layoutOf, plain } from './markdown-layout.ts';
import { type DocumentFonts, loadDocumentFonts } from './document-fonts.ts';
import { renderPdf } from './pdf-layout.ts';
import { type TemplateInput, templateData } from './template-data.ts';

/** What the renderer reads with: the store (outside any transaction, holding no lock) and, optionally, fonts already loaded. */
export interface DocumentRendererDeps { store: StoreReader; fonts?: DocumentFonts }

/**
 * The documents' renderer (src/model/document.ts): reads the program, the template and the project's data as they
 * are now, with no transaction and no lock, and renders the PDF. A template the project's data cannot render (a
 * limit passed, an unknown column of a table's row) is refused with INVALID_REQUEST naming the place.
 */
export function createDocumentRenderer(deps: DocumentRendererDeps): DocumentRenderer {
  const fonts = deps.fonts ?? loadDocumentFonts();
  return {
    async renderForProject({ programId, templateId, projectId, now }) {
      const { store } = deps;
      const program = await store.programs.findProgram(programId);
      if (!program) throw new ApiError('NOT_FOUND', `program "${programId}" not found`);
      const model = await store.programs.loadProgramModel(program);
      const template = findTemplate(model, templateId);
      const project = await store.projects.getProject(program.id, projectId);
      if (!project) throw new ApiError('NOT_FOUND', `project ${projectId} not found in program ${model.program.customId}`);
      const [values, history, deadlines, owner] = await Promise.all([
        store.projects.getValues(project.id, model.fields.map((f) => f.id)), store.projects.getHistory(project.id),
        store.deadlines.listProjectDeadlines(project.id), store.accounts.findUserById(project.ownerId),
      ]);
      return renderDocument({
        model, template, project, history, values, deadlines, now,
        owner: owner ? { name: owner.name, email: owner.email } : null, timeZone: model.program.calendar?.timeZone ?? 'UTC',
      }, fonts);
    },
  };
}

/** Renders one template over data already read: Liquid, then the Markdown laid out, then the PDF. */
export async function renderDocument(input: TemplateInput, fonts: DocumentFonts, options: { compress?: boolean } = {}): Promise<RenderedDocument> {
  const { template } = input;
  const liquid = documentLiquid(input.now);
  const data = templateData(input);
  const render = (part: 'body' | 'header' | 'footer', source: string, scope: Record<string, unknown>): string => {
    let out: string;
    try {
      out = String(liquid.parseAndRenderSync(source, scope));
    } catch (error) {
      const p = describeLiquidError(error, source);
      throw new ApiError('INVALID_REQUEST', `document "${template.customId}": ${part} (line ${p.line}, column ${p.column} of the ${part}): ${p.message}`);
    }
    if (out.length > TEMPLATE_LIMITS.outputChars) {
      throw new ApiError('INVALID_REQUEST', `document "${template.customId}": the ${part} makes ${out.length} characters; at most ${TEMPLATE_LIMITS.outputChars} are allowed`);
    }
    return out;
  };
  const margin = (part: 'header' | 'footer', source: string | null) => (source === null ? null
    : (page: number, pages: number) => plain(layoutOf(render(part, source, { ...data, page, pages })).flatMap((b) => ('runs' in b ? b.runs : []))));
  const pdf = await renderPdf({
    blocks: layoutOf(render('body', template.body, data)), title: template.title, language: template.language,
    header: margin('header', template.header), footer: margin('footer', template.footer),
    logo: template.logo ? logoBytes(template.logo) : null, createdAt: input.now, compress: options.compress,
  }, fonts);
  return { pdf, templateVersion: template.version, title: template.title };
}
