import type { ComponentChildren } from 'preact';
import type { ProjectRelationsView, Relationship } from '../../domain/relations/relation-service.ts';
import { formatDateTime, isoDateTime } from '../format-time.ts';
import { reviewPath } from '../pages/work-queue-page.tsx';
import { projectPagePath } from '../web-paths.ts';
import { TableBox } from './table-box.tsx';

const RELATIONSHIP: Record<Relationship, string> = {
  child: 'Child', parent: 'Parent', successor: 'Successor', predecessor: 'Predecessor', link: 'Linked',
};

/** The staff page's forms in the section: create a related project, remove a link (a row's), link a project. */
export interface RelationForms {
  create: (relationId: string, name: string) => ComponentChildren;
  unlink: (relationId: string, label: string) => ComponentChildren;
  link: ComponentChildren;
}

/**
 * A project's related projects that the reader may read (src/domain/relations leaves out the others entirely), each
 * linked to its review page for its program's staff and to its project page for others; with `forms`, the staff
 * page's forms that create a related project from one of the program's relations, remove a link, and link a project.
 */
export function RelatedProjects(p: { relations: ProjectRelationsView; timeZone: string; forms?: RelationForms }) {
  const { relations, offers, linkPrograms } = p.relations;
  const offered = p.forms ? offers : [];
  const linking = p.forms !== undefined && linkPrograms.length > 0;
  if (relations.length === 0 && offered.length === 0 && !linking) return null;
  return (
    <section aria-labelledby="relations-title">
      <h2 id="relations-title">Related projects</h2>
      {relations.length === 0 ? <p>No related project yet.</p> : (
        <TableBox label="Related projects">
          <table class="usa-table">
            <caption class="usa-sr-only">Related projects, oldest relation first</caption>
            <thead>
              <tr>
                <th scope="col">Relation</th><th scope="col">Project</th><th scope="col">Program</th><th scope="col">Status</th><th scope="col">Since</th>
                {p.forms ? <th scope="col">Action</th> : null}
              </tr>
            </thead>
            <tbody class="relations">
              {relations.map((r) => (
                <tr key={r.relationId}>
                  <td>{RELATIONSHIP[r.relationship]}{r.relationName ? ` (${r.relationName})` : ''}</td>
                  <td><a href={r.staff ? reviewPath(r.programId, r.projectId) : projectPagePath(r.programId, r.projectId)}>{r.projectNumber ?? 'Unsubmitted project'}</a></td>
                  <td>{r.programName}</td>
                  <td>{r.statusName}</td>
                  <td><time datetime={isoDateTime(r.createdAt)}>{formatDateTime(r.createdAt, p.timeZone)}</time></td>
                  {p.forms ? <td>{r.kind === 'link' ? p.forms.unlink(r.relationId, r.projectNumber ?? 'the unsubmitted project') : 'Fixed'}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableBox>
      )}
      {offered.length > 0 ? (
        <ul class="usa-list forms">
          {offered.map((o) => <li key={o.customId}>{p.forms!.create(o.customId, `${o.name} (${o.programName})`)}</li>)}
        </ul>
      ) : null}
      {linking ? p.forms!.link : null}
    </section>
  );
}
