/**
 * The demo page at `/`: static HTML, CSS and JS from src/api/demo, read once at start-up and
 * served by the app itself (no build step, no CDN). The page calls the public /v1 API.
 */
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';

const ASSETS = new URL('../demo/', import.meta.url);

const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const FILES = [
  { url: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { url: '/demo/demo.js', file: 'demo.js', type: 'text/javascript; charset=utf-8' },
  { url: '/demo/demo.css', file: 'demo.css', type: 'text/css; charset=utf-8' },
] as const;

export const demoRoutes: FastifyPluginAsync = async (app) => {
  for (const { url, file, type } of FILES) {
    const content = readFileSync(new URL(file, ASSETS));
    app.get(url, { schema: { hide: true } }, async (_request, reply) => {
      reply
        .type(type)
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .header('cache-control', 'no-cache');
      return content;
    });
  }
};
