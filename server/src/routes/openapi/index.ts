import Router from '@koa/router';
import { buildOpenApiDocument } from '../../integratorApi/openapi';
import type { AppState } from '../../types';

/** GET /api/openapi.json: the public API's contract, built once per process. */
export function openApiRoutes(version: string): Router<AppState> {
  const router = new Router<AppState>();
  let document: Record<string, unknown> | null = null;
  router.get('/api/openapi.json', (ctx) => {
    document ??= buildOpenApiDocument(version);
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = document;
  });
  return router;
}
