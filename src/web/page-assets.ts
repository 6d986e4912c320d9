import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../domain/api-error.ts';

/** The installed package's dist/ folder (its compiled CSS, fonts and images), found from here at runtime, in src/ or dist/. */
const USWDS_DIST = path.dirname(path.dirname(createRequire(import.meta.url).resolve('@uswds/uswds/css/uswds.min.css')));

/** The installed version of the U.S. Web Design System: part of every asset's path, so a new version is a new address. */
export const USWDS_VERSION: string = JSON.parse(fs.readFileSync(path.join(USWDS_DIST, '..', 'package.json'), 'utf8')).version;

/** Where the design system's files are served; the style sheet's `../fonts/…` and `../img/…` resolve below it. */
export const USWDS_PREFIX = `/MvcProjects/assets/uswds-${USWDS_VERSION}`;

/** The design system's style sheet, which every page loads before the site's own. */
export const USWDS_STYLESHEET_PATH = `${USWDS_PREFIX}/css/uswds.min.css`;

const SITE_STYLESHEET = fs.readFileSync(new URL('./assets/apas.css', import.meta.url));

/**
 * The site's own small style sheet (what the design system has no pattern for), loaded after the design system's; a
 * hash of its content is in its path, so a changed file is a new address and browsers may keep each for a year.
 */
export const SITE_STYLESHEET_PATH = `/MvcProjects/assets/apas-${createHash('sha256').update(SITE_STYLESHEET).digest('hex').slice(0, 12)}.css`;

/** The icon sprite (`<use href="…#name">`). */
export const USWDS_SPRITE_PATH = `${USWDS_PREFIX}/img/sprite.svg`;

// Only the style sheet, fonts and images: the package's JavaScript is never served (the pages run no script).
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.gif': 'image/gif', '.jpg': 'image/jpeg', '.webp': 'image/webp',
};
const FOLDERS = new Set(['css', 'fonts', 'img']);

/** The file of the package an asset path names, or null when it names none of the served kinds (or leaves the package). */
export function uswdsAssetFile(relative: string): { file: string; type: string } | null {
  const parts = relative.split('/');
  if (!FOLDERS.has(parts[0] ?? '') || parts.some((x) => x === '' || x === '.' || x === '..' || x.includes('\\'))) return null;
  const type = TYPES[path.extname(relative).toLowerCase()];
  if (!type) return null;
  const file = path.join(USWDS_DIST, ...parts);
  if (!file.startsWith(USWDS_DIST + path.sep)) return null;
  return { file, type };
}

const YEAR = 'public, max-age=31536000, immutable';

/**
 * Serves the site's style sheet, and the design system's style sheet, fonts and images from the installed package.
 * A version or hash is in every path, so a browser may keep them for a year; an unknown file is the pages' 404.
 */
export function pageAssetRoutes(web: FastifyInstance): void {
  web.get(SITE_STYLESHEET_PATH, async (_request, reply) => reply.type('text/css; charset=utf-8').header('Cache-Control', YEAR).send(SITE_STYLESHEET));
  web.get(`${USWDS_PREFIX}/*`, async (request, reply) => {
    const asset = uswdsAssetFile((request.params as { '*': string })['*']);
    const body = asset ? await fs.promises.readFile(asset.file).catch(() => null) : null;
    if (!asset || !body) throw new ApiError('NOT_FOUND', 'No such asset.');
    return reply.type(asset.type).header('Cache-Control', YEAR).send(body);
  });
}
