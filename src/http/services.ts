import { QueueViewService } from '../domain/queue/queue-view-service.ts';
import { DashboardService } from '../domain/dashboards/dashboard-service.ts';
import { OrganizationService } from '../domain/organizations/organization-service.ts';
import { ProjectMailService } from '../domain/mail/project-mail-service.ts';
import { EventService } from '../domain/events/event-service.ts';
import type { Config } from '../config.ts';
import { AccessTokenService } from '../domain/accounts/access-token-service.ts';
import { ApplicationService } from '../domain/projects/application-service.ts';
import { AttachmentService } from '../domain/projects/attachment-service.ts';
import { AuthService } from '../domain/accounts/auth-service.ts';
import { CatalogService } from '../domain/programs/catalog-service.ts';
import { ExportService } from '../domain/projects/export-service.ts';
import { FormDataService } from '../domain/projects/form-data-service.ts';
import { ConnectionFieldLookups } from '../domain/connections/field-lookups.ts';
import { HttpConnectionClient } from '../domain/connections/connection-client.ts';
import { IdempotencyService } from '../domain/projects/idempotency-service.ts';
import { InquiryService } from '../domain/inquiries/inquiry-service.ts';
import { MfaService } from '../domain/accounts/mfa-service.ts';
import { PortalService } from '../domain/portal/portal-service.ts';
import { CopyService } from '../domain/portal/copy-service.ts';
import { RelationService } from '../domain/relations/relation-service.ts';
import { MyProjectsService } from '../domain/portal/my-projects-service.ts';
import { ProjectRemovalService } from '../domain/portal/project-removal-service.ts';
import { ProjectService } from '../domain/projects/project-service.ts';
import { MemoryRateLimiter, type RateLimiter, SharedRateLimiter } from '../domain/accounts/rate-limiter.ts';
import { ReviewService } from '../domain/projects/review-service.ts';
import { SearchService } from '../domain/projects/search-service.ts';
import { SelfServiceAccounts } from '../domain/accounts/self-service-accounts.ts';
import { DEFAULT_SIGN_IN_POLICY, SignInGuard, type Sleeper } from '../domain/accounts/sign-in-guard.ts';
import { signInNotice } from '../domain/accounts/sign-in-notice.ts';
import { SubmitService } from '../domain/projects/submit-service.ts';
import { DEFAULT_WEB_SESSION_POLICY, WebSessionService } from '../domain/accounts/web-session-service.ts';
import { WebhookService } from '../domain/webhooks/webhook-service.ts';
import { WorkQueueService } from '../domain/queue/work-queue-service.ts';
import { BulkActionService } from '../domain/queue/bulk-action-service.ts';
import { TemplateMailService } from '../domain/workflow/template-mail-service.ts';
import { WorkflowService } from '../domain/projects/workflow-service.ts';
import { DeadlineService } from '../domain/deadlines/deadline-service.ts';
import { GenerationService } from '../domain/documents/generation-service.ts';
import { DocumentPreviewService } from '../domain/documents/preview-service.ts';
import { AutomationService } from '../domain/automations/automation-service.ts';
import { SigningService } from '../domain/signing/signing-service.ts';
import { ConsoleService } from '../domain/administration/console-service.ts';
import { ConnectionConsoleService } from '../domain/administration/connection-console-service.ts';
import { ConnectionSettingsService } from '../domain/connections/connection-settings-service.ts';
import { ProgramPublishingService } from '../domain/administration/program-publishing-service.ts';
import { ListConsoleService } from '../domain/lists/list-console-service.ts';
import { requireAdministeredProgram } from '../domain/administration/console-scope.ts';
import { ProgramPreviewService } from '../domain/administration/program-preview-service.ts';
import { programCheckers } from '../domain/wiring/program-checkers.ts';
import type { Caller } from '../domain/caller.ts';
import { CredentialService } from '../domain/administration/credential-service.ts';
import { InstallerOrganizationService } from '../domain/administration/installer-organization-service.ts';
import { PeopleService } from '../domain/administration/people-service.ts';
import { type ConsoleOperations, consoleOperations } from '../domain/administration/console-operations.ts';
import { TestProgramService } from '../domain/administration/test-program-service.ts';
import { OpenIdClient } from '../domain/sign-on/openid-provider-client.ts';
import { SignOnService } from '../domain/sign-on/sign-on-service.ts';
import { SignOnSettingsService } from '../domain/sign-on/sign-on-settings-service.ts';
import { SelfServicePolicyService } from '../domain/administration/self-service-policy-service.ts';
import { OwnCredentialsService } from '../domain/accounts/own-credentials-service.ts';
import { OwnWebhookService } from '../domain/webhooks/own-webhook-service.ts';
import type { Clock } from '../model/clock.ts';
import type { IdGenerator } from '../model/ids.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { createBlobStore } from '../store/create-blob-store.ts';
import type { Store } from '../store/store.ts';
import { changeReactions } from '../domain/wiring/change-reactions.ts';
import { grantFollowers } from '../domain/wiring/grant-followers.ts';
import { CONSOLE_IMPORT_BOUNDS, ProjectImportService } from '../domain/imports/project-import-service.ts';

const realSleep: Sleeper = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Self-service sign-up and reset requests per client address and hour, and account mails per e-mail address and hour.
const ACCOUNT_REQUESTS_PER_ADDRESS = 20;
const ACCOUNT_MAILS_PER_ADDRESS = 5;

/** An hourly counter in memory or, as APAS_RATE_LIMIT_STORE says, shared through the database. */
function limiter(config: Config, store: Store, clock: Clock, max: number): RateLimiter {
  return config.rateLimit.store === 'database' ? new SharedRateLimiter(store, max, 3_600_000, clock) : new MemoryRateLimiter(max, 3_600_000, clock);
}

/** The domain services one app instance uses, built once from its dependencies. */
export interface Services {
  auth: AuthService;
  projects: ProjectService;
  formData: FormDataService;
  submit: SubmitService;
  attachments: AttachmentService;
  catalog: CatalogService;
  workflow: WorkflowService;
  deadlines: DeadlineService;
  /** The program's documents on a project, and requests to generate them (src/domain/documents). */
  generation: GenerationService;
  /** A program's document rendered over a project as it is now, for its admins; writes nothing (src/domain/documents). */
  documentPreview: DocumentPreviewService;
  /** A project's automation runs; a daily schedule's preview and run now. */
  automations: AutomationService;
  inquiries: InquiryService;
  exports: ExportService;
  search: SearchService;
  mfa: MfaService;
  webSessions: WebSessionService;
  portal: PortalService;
  /** My projects, copying an application, deleting a draft and withdrawing (src/domain/portal). */
  myProjects: MyProjectsService;
  copies: CopyService;
  /** Related projects: a project's relations as its reader may see them, and staff creating related projects (src/domain/relations). */
  relations: RelationService;
  removals: ProjectRemovalService;
  applications: ApplicationService;
  workQueue: WorkQueueService;
  /** The work queue's bulk actions, through the single actions' services. */
  bulkActions: BulkActionService;
  /** A program's named mail template sent to a project's owner. */
  templateMail: TemplateMailService;
  /** The mails a project's owner was sent about it, for the project and review pages. */
  projectMail: ProjectMailService;
  queueViews: QueueViewService;
  dashboards: DashboardService;
  review: ReviewService;
  rateLimiter: RateLimiter;
  tokens: AccessTokenService;
  idempotency: IdempotencyService;
  events: EventService;
  webhooks: WebhookService;
  selfService: SelfServiceAccounts;
  organizations: OrganizationService;
  /** E-signature envelopes: the signing page's steps, GetEnvelope, and staff's void and resend. */
  signing: SigningService;
  /** What a caller administers in the agency console (src/domain/administration). */
  console: ConsoleService;
  /** The console's Programs area: publishing program files with their version history, and previews (src/domain/administration). */
  programAdmin: { publishing: ProgramPublishingService; previews: ProgramPreviewService };
  /** The console's long lists: loading a list's rows from a CSV file (src/domain/lists). */
  listAdmin: ListConsoleService;
  /** The console's People, Organizations and Credentials areas, acting for a caller (src/domain/administration). */
  peopleAdmin: { people: PeopleService; organizations: InstallerOrganizationService; credentials: CredentialService };
  /** The console's Webhooks, Audit trail and Mail areas (src/domain/administration). */
  consoleOperations: ConsoleOperations;
  /** Test copies of programs: create, update from live, reset, and their mail outbox (console area Test programs). */
  testPrograms: TestProgramService;
  /** Staff single sign-on with OpenID Connect: the agency's settings and the sign-in flow (src/domain/sign-on). */
  signOn: { settings: SignOnSettingsService; flow: SignOnService };
  /** Self-service for applicants and integrators: the agency's policy, users' own credentials and webhooks. */
  integrations: { policy: SelfServicePolicyService; credentials: OwnCredentialsService; webhooks: OwnWebhookService };
  /** Projects created or updated from a CSV file, the console's Import projects area (src/domain/imports). */
  imports: ProjectImportService;
  /** The console's Connections area: where each program's connections go and how they sign in (as `apas connection`). */
  connectionAdmin: ConnectionConsoleService;
}

/** Builds the services over a store, clock and id generator; uploads go to `blobs` (by default the configured blob store). */
export function createServices(
  config: Config, store: Store, clock: Clock, ids: IdGenerator, sleep: Sleeper = realSleep, blobs: BlobStore = createBlobStore(config, store),
): Services {
  const deps = { store, clock, ids, publicUrl: config.publicUrl, maxNumbersPerRequest: config.maxNumbersPerRequest, reactions: changeReactions() };
  const { max, windowSeconds, store: where } = config.rateLimit;
  const rateLimiter = where === 'database'
    ? new SharedRateLimiter(store, max, windowSeconds * 1000, clock)
    : new MemoryRateLimiter(max, windowSeconds * 1000, clock);
  const mailOn = config.mail.smtpUrl !== null;
  const signOnSettings = new SignOnSettingsService({ store, clock, ids });
  const auth = new AuthService(store, clock, new SignInGuard(store, clock, sleep, {
    ...DEFAULT_SIGN_IN_POLICY, windowMs: config.signIn.windowSeconds * 1000,
    lockUserAfter: config.signIn.lockUserAfter, lockAddressAfter: config.signIn.lockAddressAfter, accountSlowAfter: config.signIn.accountSlowAfter,
  }, signInNotice({ store, clock, ids, publicUrl: config.publicUrl, mailOn })), ids, signOnSettings);
  const webSessions = new WebSessionService({ store, clock, ids }, auth, {
    ...DEFAULT_WEB_SESSION_POLICY, idleMs: config.web.sessionIdleMinutes * 60_000, maxMs: config.web.sessionMaxHours * 3_600_000,
  });
  // Field lookups (a connection's `lookup:`) ask the agency's systems at save, under the webhooks' address rules.
  const formData = new FormDataService(deps, new ConnectionFieldLookups({ store, clock, client: new HttpConnectionClient({ allowInsecure: config.webhooks.allowInsecure }) }));
  const workflow = new WorkflowService(deps);
  const workQueue = new WorkQueueService(deps);
  const templateMail = new TemplateMailService(deps);
  const projects = new ProjectService(deps);
  const webhooks = new WebhookService({ store, clock, ids, policy: { allowInsecure: config.webhooks.allowInsecure } });
  const consoleService = new ConsoleService(deps);
  const programConsole = { store, clock, ids, checkers: programCheckers(), scope: (caller: Caller) => consoleService.scope(caller) };
  const selfService = new SelfServiceAccounts({
    store, clock, ids, publicUrl: config.publicUrl, mailOn,
    perAddress: limiter(config, store, clock, ACCOUNT_REQUESTS_PER_ADDRESS), perEmail: limiter(config, store, clock, ACCOUNT_MAILS_PER_ADDRESS),
  });
  const organizations = new OrganizationService({ ...deps, mailOn });
  return {
    auth,
    projects,
    formData,
    submit: new SubmitService(deps),
    attachments: new AttachmentService(deps, { blobs, maxUploadBytes: config.maxUploadBytes }),
    catalog: new CatalogService(deps),
    workflow,
    deadlines: new DeadlineService(deps),
    generation: new GenerationService(deps),
    documentPreview: new DocumentPreviewService(deps),
    automations: new AutomationService(deps),
    inquiries: new InquiryService(deps),
    exports: new ExportService(deps),
    search: new SearchService(deps),
    mfa: new MfaService({ store, clock, ids }),
    portal: new PortalService(deps),
    myProjects: new MyProjectsService(deps),
    copies: new CopyService(deps, projects),
    relations: new RelationService(deps),
    removals: new ProjectRemovalService(deps, { blobs }),
    applications: new ApplicationService(deps, formData),
    workQueue,
    bulkActions: new BulkActionService(deps, { workflow, workQueue, templateMail }),
    templateMail,
    queueViews: new QueueViewService(deps),
    dashboards: new DashboardService(deps),
    review: new ReviewService(deps),
    webSessions,
    rateLimiter,
    tokens: new AccessTokenService({ store, clock, ids, auth, rateLimiter, lifetimeSeconds: config.oauth.tokenTtlSeconds }),
    idempotency: new IdempotencyService({ store, clock }),
    events: new EventService(deps),
    webhooks,
    organizations,
    signing: new SigningService({ ...deps, mailOn, blobs }),
    console: consoleService,
    programAdmin: { publishing: new ProgramPublishingService(programConsole), previews: new ProgramPreviewService(programConsole) },
    listAdmin: new ListConsoleService({ store, clock, ids, administeredProgram: async (caller, ref) => requireAdministeredProgram(await consoleService.scope(caller), ref) }),
    consoleOperations: consoleOperations({ console: consoleService, webhooks, store, clock, ids }),
    testPrograms: new TestProgramService({ store, clock, ids, checkers: programCheckers(), console: consoleService, blobs }),
    signOn: { settings: signOnSettings, flow: new SignOnService({ ...deps, grantFollowers: grantFollowers() }, new OpenIdClient(clock), webSessions) },
    integrations: {
      policy: new SelfServicePolicyService(deps),
      credentials: new OwnCredentialsService(deps),
      webhooks: new OwnWebhookService({ ...deps, policy: { allowInsecure: config.webhooks.allowInsecure } }),
    },
    projectMail: new ProjectMailService(deps),
    selfService,
    peopleAdmin: {
      people: new PeopleService({ store, clock, ids, selfService, grantFollowers: grantFollowers() }),
      organizations: new InstallerOrganizationService({ store, organizations }),
      credentials: new CredentialService({ store, clock, ids }),
    },
    imports: new ProjectImportService(deps, CONSOLE_IMPORT_BOUNDS),
    connectionAdmin: new ConnectionConsoleService({
      console: consoleService, settings: new ConnectionSettingsService({ store, clock, ids, policy: { allowInsecure: config.webhooks.allowInsecure } }),
    }),
  };
}
