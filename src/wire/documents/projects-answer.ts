import type { ProjectSummaryView, ProjectsView } from '../../domain/views.ts';
import { isoTimestamp } from '../../model/clock.ts';
import { escapeXml, XML_DECLARATION } from '../../xml/xml-writer.ts';
import type { WrittenAnswer } from '../written-answer.ts';

/** Characters gathered before a chunk is handed out, as the compiled writer does (wire-xml-writer.ts). */
const CHUNK_SIZE = 16 * 1024;

/**
 * ProjectsResponse (GetProjects, GetProjectsByNumber, GetProjectsByData) of either version, written straight from the
 * view: one string per listed project, each distinct value of the repeating attributes (program, status) escaped once,
 * a timestamp formatted once when the status time and the last change are the same. The bytes are those of
 * projectsValue / extendedProjectsValue through the codec (test/xml/projects-answer.test.ts holds them to it), at a
 * fifth of the CPU (docs/performance.md, "A page of 100 on PostgreSQL").
 */
export function projectsAnswer(view: ProjectsView): WrittenAnswer {
  return { xml: (ns) => projectsXml(view, ns), json: () => projectsJson(view) };
}

// xs:float as the compiled writer formats it: an integer with one decimal.
function floatText(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function projectsXml(view: ProjectsView, ns: string): string[] {
  const chunks: string[] = [];
  let out = `${XML_DECLARATION}<ProjectsResponse xmlns="${escapeXml(ns, true)}" SchemaVersion="${escapeXml(floatText(view.schemaVersion), true)}"`
    + ` RequestTimestamp="${isoTimestamp(view.requestTimestamp)}"><Projects`;
  if (view.projects.length === 0) return [`${out}/></ProjectsResponse>`];
  out += '>';
  const escaped = new Map<string, string>();
  const once = (s: string): string => {
    let e = escaped.get(s);
    if (e === undefined) escaped.set(s, (e = escapeXml(s, true)));
    return e;
  };
  const extended = view.extended;
  for (const p of view.projects) {
    out += `<Project ProjectId="${escapeXml(p.projectId, true)}" ProgramId="${once(p.programId)}"${p.projectNumber === null ? '' : ` ProjectNumber="${escapeXml(p.projectNumber, true)}"`}`
      + ` Status="${once(p.status)}"${times(p, ' StatusTimestamp="', '" LastChangeTimestamp="')}"`;
    if (extended) out += `${p.statusCustomId === null ? '' : ` StatusCustomId="${once(p.statusCustomId)}"`} StatusPublicId="${once(p.statusPublicId)}"`;
    out += '/>';
    if (out.length >= CHUNK_SIZE) {
      chunks.push(out);
      out = '';
    }
  }
  chunks.push(`${out}</Projects></ProjectsResponse>`);
  return chunks;
}

// The status time and the last change with what goes before and between them (one format when they are equal).
function times(p: ProjectSummaryView, before: string, between: string): string {
  const status = isoTimestamp(p.statusTimestamp);
  return `${before}${status}${between}${p.lastChangeTimestamp === p.statusTimestamp ? status : isoTimestamp(p.lastChangeTimestamp)}`;
}

function projectsJson(view: ProjectsView): string {
  const quoted = new Map<string, string>();
  const once = (s: string): string => {
    let q = quoted.get(s);
    if (q === undefined) quoted.set(s, (q = JSON.stringify(s)));
    return q;
  };
  const extended = view.extended;
  let out = `{"SchemaVersion":${JSON.stringify(view.schemaVersion)},"RequestTimestamp":"${isoTimestamp(view.requestTimestamp)}","Projects":{"Project":[`;
  let first = true;
  for (const p of view.projects) {
    out += `${first ? '' : ','}{"ProjectId":${JSON.stringify(p.projectId)},"ProgramId":${once(p.programId)}${p.projectNumber === null ? '' : `,"ProjectNumber":${JSON.stringify(p.projectNumber)}`}`
      + `,"Status":${once(p.status)}${times(p, ',"StatusTimestamp":"', '","LastChangeTimestamp":"')}"`;
    if (extended) out += `${p.statusCustomId === null ? '' : `,"StatusCustomId":${once(p.statusCustomId)}`},"StatusPublicId":${once(p.statusPublicId)}`;
    out += '}';
    first = false;
  }
  return `${out}]}}`;
}
