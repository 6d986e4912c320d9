/** The console's start page; each area's pages live under it. */
export const CONSOLE_PATH = '/MvcProjects/Console';

/** One area of the console: its address, its name in the side navigation, and whether only agency admins see it. */
export interface ConsoleArea { id: string; path: string; label: string; agencyAdminOnly: boolean }

/** The console's areas, in the order of the side navigation. */
export const CONSOLE_AREAS: readonly ConsoleArea[] = [
  { id: 'people', path: `${CONSOLE_PATH}/People`, label: 'People', agencyAdminOnly: false },
  { id: 'organizations', path: `${CONSOLE_PATH}/Organizations`, label: 'Organizations', agencyAdminOnly: true },
  { id: 'credentials', path: `${CONSOLE_PATH}/Credentials`, label: 'Credentials', agencyAdminOnly: true },
  { id: 'webhooks', path: `${CONSOLE_PATH}/Webhooks`, label: 'Webhooks', agencyAdminOnly: false },
  { id: 'connections', path: `${CONSOLE_PATH}/Connections`, label: 'Connections', agencyAdminOnly: false },
  { id: 'programs', path: `${CONSOLE_PATH}/Programs`, label: 'Programs', agencyAdminOnly: false },
  { id: 'test-programs', path: `${CONSOLE_PATH}/TestPrograms`, label: 'Test programs', agencyAdminOnly: false },
  { id: 'import', path: `${CONSOLE_PATH}/Import`, label: 'Import projects', agencyAdminOnly: false },
  { id: 'audit', path: `${CONSOLE_PATH}/Audit`, label: 'Audit trail', agencyAdminOnly: false },
  { id: 'mail', path: `${CONSOLE_PATH}/Mail`, label: 'Mail', agencyAdminOnly: false },
  { id: 'sign-on', path: `${CONSOLE_PATH}/SignOn`, label: 'Single sign-on', agencyAdminOnly: true },
  { id: 'self-service', path: `${CONSOLE_PATH}/SelfService`, label: 'Self-service', agencyAdminOnly: true },
];

/** The area with this id (a programming error when there is none). */
export function consoleArea(id: string): ConsoleArea {
  const area = CONSOLE_AREAS.find((a) => a.id === id);
  if (!area) throw new Error(`no console area ${id}`);
  return area;
}
