/**
 * What the document benches (seal-cost.ts, generation-cost.ts) share: a three-page interconnection agreement written
 * as a program author would (Liquid over Markdown: headings, paragraphs, a table of fields, the inverters' rows with
 * rowsTable, a header and a footer with page numbers), the demo program with that document and an automation asking
 * for it on approval, and a demo database in a temporary directory with submitted projects to render it over.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.ts';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH, seedDemo } from '../src/domain/programs/demo.ts';
import { validateProgramFile } from '../src/domain/programs/program-file.ts';
import { importProgram } from '../src/domain/programs/program-import.ts';
import { programCheckers } from '../src/domain/wiring/program-checkers.ts';
import { buildApp } from '../src/http/app.ts';
import { systemClock } from '../src/model/clock.ts';
import { RandomIdGenerator } from '../src/model/ids.ts';
import { DatabaseBlobStore } from '../src/store/database-blob-store.ts';
import { openDatabase } from '../src/store/database.ts';
import { createKyselyStore } from '../src/store/kysely-store.ts';
import { ephemeralSecretBox } from '../src/store/secret-box.ts';
import type { Store } from '../src/store/store.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';
import { TINY_PDF } from '../test/support/tiny-pdf.ts';
import { demoAuth } from './in-process.ts';

/** The demo program with the agreement: its customId. */
export const DOCS_PROGRAM = 'RES-SOLAR-DOCS';

const TERMS = [
  ['Scope', 'This agreement sets out the terms on which the customer may connect the generating facility described below to the utility\'s distribution system and operate it in parallel with that system. It covers the facility as approved; any change to its size, equipment or protection needs the utility\'s written consent before it is made.'],
  ['Design and installation', 'The customer shall have the facility designed, installed and maintained by qualified persons in accordance with the National Electrical Code, the local building code, the manufacturer\'s instructions and the utility\'s interconnection requirements in force on the date of this agreement.'],
  ['Inspection and testing', 'Before the facility first operates in parallel, the authority having jurisdiction shall inspect it and the utility may witness its commissioning tests. The customer shall give the utility at least five business days\' notice of the tests and a copy of the final electrical inspection.'],
  ['Metering', 'The utility shall install, own and maintain the meter that measures the energy delivered to and received from the customer. The customer shall give the utility\'s staff safe access to the meter and the disconnect switch at all reasonable times.'],
  ['Disconnection', 'The utility may disconnect the facility without notice when its operation endangers persons or property or disturbs other customers\' service, and with ten business days\' notice when the customer fails to meet a term of this agreement and does not cure the failure within that time.'],
  ['Liability and indemnity', 'Each party is liable for the damage its own negligence causes. The customer shall hold the utility harmless from claims arising from the facility\'s design, installation or operation, except to the extent that the utility\'s negligence caused them.'],
  ['Insurance', 'The customer shall keep a homeowner\'s or general liability policy covering the facility for at least the amount the program requires, and show the utility proof of it on request.'],
  ['Assignment', 'The customer may assign this agreement to a later owner of the premises, who takes on every obligation in it, by giving the utility written notice within thirty days of the transfer.'],
  ['Term and termination', 'This agreement takes effect when both parties have signed it and lasts as long as the facility remains connected. The customer may end it at any time by disconnecting the facility and giving the utility thirty days\' written notice.'],
  ['Notices', 'Notices under this agreement are given in writing to the addresses above, or by electronic mail to the addresses the parties have given for this project, and take effect when received.'],
  ['Entire agreement', 'This agreement, the program\'s rules and the utility\'s tariff in force from time to time are the whole agreement of the parties about the interconnection of the facility; no oral promise changes it.'],
] as const;

/** The agreement's body: Liquid over Markdown, about three pages once rendered. */
export const AGREEMENT_BODY = [
  '# Interconnection agreement for project {{ project.number }}', '',
  'This agreement is made on {{ today | date: "%B %-d, %Y" }} between **{{ program.name }}** (the utility) and **{{ fields.CustomerName }}** (the customer), for the generating facility at {{ fields.ServiceAddress }}.', '',
  '## The facility', '',
  '| Item | Value |', '|---|---|',
  '| Customer | {{ fields.CustomerName }} ({{ fields.CustomerEmail }}) |',
  '| Service address | {{ fields.ServiceAddress }} |',
  '| Utility account | {{ fields.UtilityAccountNumber }} |',
  '| Service type | {{ fields.ServiceType }} |',
  '| System size | {{ fields.SystemSizeKwDc }} kW DC, {{ fields.SystemSizeKwAc }} kW AC |',
  '| Modules | {{ fields.ModuleCount }} |',
  '| Mounting | {{ fields.MountingType }} |',
  '| Battery storage | {{ fields.HasBattery }}{% if fields.BatteryCapacityKwh != blank %}, {{ fields.BatteryCapacityKwh }} kWh{% endif %} |',
  '| Installer | {{ fields.InstallerName }} |',
  '| Planned installation | {{ fields.PlannedInstallDate | date: "%B %-d, %Y" }} |',
  '| Status | {{ project.status }} since {{ project.statusDate }} |', '',
  '## Inverters', '',
  'The facility converts its output with the following inverters, each certified to UL 1741 SB:', '',
  '{{ fields.Inverters | rowsTable }}', '',
  ...TERMS.flatMap(([title, text], i) => [`## ${i + 1}. ${title}`, '', text, '', ...(i % 2 === 0 ? [`The parties agree that ${text.charAt(0).toLowerCase()}${text.slice(1)}`, ''] : [])]),
  '## Signatures', '',
  'Signed electronically by the customer, {{ owner.name }} ({{ owner.email }}), and by the utility\'s plan reviewer; the signature page and the certificate of completion follow this page.',
].join('\n');

/** What a variant of the demo program has: no documents, the agreement, or the agreement and an automation asking for it on approval. */
export type Variant = 'none' | 'agreement' | 'automation';

/** The demo program file under another customId, with what `variant` says. */
export function docsProgramFile(customId: string, variant: Variant) {
  const file = parse(fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8')) as { customId: string; automations: unknown[]; documents?: unknown[] };
  file.customId = customId;
  if (variant === 'none') return validateProgramFile(file);
  file.documents = [{
    customId: 'Agreement', name: 'Interconnection agreement', title: 'Interconnection agreement', language: 'en-US', form: 'Application',
    visibleToApplicant: true, sensitiveFields: ['UtilityAccountNumber'], body: AGREEMENT_BODY,
    header: '{{ program.name }} · {{ project.number }}', footer: 'Interconnection agreement · page {{ page }} of {{ pages }}',
    signers: [{ customId: 'Customer', name: 'Customer', owner: true }, { customId: 'Utility', name: 'Plan reviewer', role: 'Reviewer' }],
  }];
  if (variant === 'automation') {
    file.automations.push(parse(`
      customId: AgreementOnApproval
      name: The interconnection agreement is generated on approval
      when: { trigger: status.entered, status: ApprovedForInstallation }
      then: [{ do: generateDocument, document: Agreement }]`));
  }
  return validateProgramFile(file);
}

/** A realistic application of the demo program (the inverters add up to the AC output, as its rule wants). */
export const APPLICATION: Record<string, string> = {
  CustomerName: 'Pat Homeowner', CustomerEmail: 'pat@example.org', CustomerPhone: '+1 303 555 0142', ServiceAddress: '1 Sunny Lane, Boulder, CO 80302',
  UtilityAccountNumber: 'ACCT-1001-2002', MeterNumber: 'M-778812', ServiceType: '1P-120-240', SystemSizeKwDc: '7.6', SystemSizeKwAc: '6', ModuleCount: '19',
  InverterMake: 'SMA', InverterModel: 'SB3.0', MountingType: 'Roof', HasBattery: 'true', BatteryCapacityKwh: '13.5', InstallerName: 'Bright Solar LLC',
  InstallerLicense: 'EC-204411', PlannedInstallDate: '2026-03-15',
};
const INVERTERS = [{ Make: 'SMA', Model: 'SB3.0', Quantity: '1', RatedKwAc: '3' }, { Make: 'FRONIUS', Model: 'Primo 3.0', Quantity: '1', RatedKwAc: '3' }];

/** A demo database with the agreement's program, the app over it (no background work), and helpers to fill it. */
export interface BenchDatabase {
  store: Store; app: FastifyInstance; ids: RandomIdGenerator; namespace: string;
  /** An admin's request; throws unless answered 200. */
  call(method: 'POST' | 'PUT', url: string, payload: string | Buffer, type?: string, extra?: Record<string, string>): Promise<string>;
  /** n projects of a program, the application filled in and submitted (so in Application Review); their ids. */
  submitted(program: string, n: number): Promise<string[]>;
  close(): Promise<void>;
}

/**
 * Opens a fresh demo database (SQLite in a temporary directory, or with `postgres` a PostgreSQL cluster started here)
 * with the given variants of the demo program imported (customId → variant).
 */
export async function openBenchDatabase(programs: Record<string, Variant>, postgres = false): Promise<BenchDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-docs-bench-'));
  const pg = postgres ? await startEmbeddedPostgres() : null;
  const config = loadConfig({ DATABASE_URL: pg?.url ?? path.join(dir, 'bench.db'), APAS_RATE_LIMIT_MAX: '10000000' });
  const store = createKyselyStore(await openDatabase(config.database), { secrets: ephemeralSecretBox() });
  const ids = new RandomIdGenerator();
  await seedDemo({ store, clock: systemClock, ids, checkers: programCheckers() });
  for (const [customId, variant] of Object.entries(programs)) {
    await importProgram({ store, clock: systemClock, ids, checkers: programCheckers() }, DEMO_AGENCY.customId, docsProgramFile(customId, variant));
  }
  const app = await buildApp({ config, store, logger: false, blobs: new DatabaseBlobStore(store, systemClock) });
  const auth = demoAuth('admin');
  const ns = config.xmlNamespace;
  const call = async (method: 'POST' | 'PUT', url: string, payload: string | Buffer, type = 'application/xml', extra: Record<string, string> = {}) => {
    const res = await app.inject({ method, url, payload, headers: { ...auth, 'content-type': type, ...extra } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.body;
  };
  const data = `<ProjectDataRequest xmlns="${ns}"><Project><DataFields>${Object.entries(APPLICATION).map(([k, v]) => `<DataField DataFieldId="${k}" Value="${v}"/>`).join('')}`
    + `<DataField DataFieldId="Inverters"><Rows>${INVERTERS.map((r) => `<Row>${Object.entries(r).map(([c, v]) => `<Cell Column="${c}" Value="${v}"/>`).join('')}</Row>`).join('')}</Rows></DataField>`
    + '</DataFields></Project></ProjectDataRequest>';
  return {
    store, app, ids, namespace: ns, call,
    async submitted(program, n) {
      const base = `/services/v2/Programs/${program}`;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const id = /ProjectId="([^"]+)"/.exec(await call('POST', `${base}/NewProject`, ''))![1]!;
        await call('POST', `${base}/Projects/${id}/Forms/Application/Attachments/SitePlan`, TINY_PDF, 'application/pdf', { 'content-disposition': 'attachment; filename="p.pdf"' });
        await call('POST', `${base}/Projects/${id}/Forms/Application/Draft/Data`, data);
        await call('POST', `${base}/Projects/${id}/Forms/Application/Draft/Submit`, '');
        out.push(id);
      }
      return out;
    },
    async close() {
      await app.close();
      await store.close();
      await pg?.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
