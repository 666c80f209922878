/**
 * The authorization matrix of teams, read from the app's own routers so that a route added later
 * is covered without being listed here: every user-area route is classified in the shared role
 * table (shared/teamRoles.ts); every role of a member is let through or refused (403, naming the
 * roles needed) exactly as the table says; and a member acting in their own account cannot reach
 * another account's records through any route with an id in its path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillMessage, messages } from '@shared/messages';
import type { TCreatedInvite } from '@shared/schemas/team';
import { AREA_ROLES, TEAM_ROLES, TEAM_ROLE_LABELS, areaOf, rolesFor, type TeamRole } from '@shared/teamRoles';
import { apiRouters } from '../../server/src/app';
import type { TestClient } from '../../server/test/client';
import { buildCampaign, buildTemplate, signedInClient } from '../../server/test/factories';
import { postgresUnavailable, startTestServer, type TestServer } from '../../server/test/server';

interface Route {
  method: string;
  /** As declared, `:id` and all. */
  pattern: string;
}

function appRoutes(server: TestServer): Route[] {
  const routers = apiRouters({ config: server.config, logger: server.logger, services: server.services, outbox: server.outbox, version: 'test' });
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) => layer.methods.filter((method) => method !== 'HEAD').map((method) => ({ method, pattern: String(layer.path) }))),
  );
}

function filled(pattern: string, value: string | number): string {
  return pattern.replace(/:\w+(\([^)]*\))?/g, String(value));
}

/** Long-lived answers (the notification stream) are not waited for: their check runs before any body. */
const STREAMS = new Set(['/api/notifications/stream']);

describe.skipIf(postgresUnavailable)('team authorization matrix', () => {
  let server: TestServer;
  let routes: Route[];
  let userRoutes: Route[];
  /** A client per role, each a member of one account (the owner is its owner). */
  const members = new Map<TeamRole, TestClient>();
  let ownerId = 0;

  beforeAll(async () => {
    server = await startTestServer({ API_RATE_LIMIT_PER_15_MIN: '100000' });
    routes = appRoutes(server);
    userRoutes = routes.filter((route) => areaOf(route.method, filled(route.pattern, 1)) !== null);
    const owner = await signedInClient(server, { creditRupees: 10 });
    ownerId = owner.user.id;
    members.set('owner', owner.client);
    for (const role of ['manager', 'agent', 'analyst'] as const) {
      const member = await signedInClient(server);
      const invite = await owner.client.post<TCreatedInvite>('/api/team/invites', { email: member.user.email, role });
      expect((await member.client.post(`/api/team/invites/${invite.body.token}/accept`)).status).toBe(200);
      expect((await member.client.post(`/api/accounts/${owner.user.id}/switch`)).status).toBe(200);
      members.set(role, member.client);
    }
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('reads the routes from the app and finds the user area among them', () => {
    expect(routes.length).toBeGreaterThan(100);
    expect(userRoutes.map((route) => `${route.method} ${route.pattern}`)).toEqual(
      expect.arrayContaining(['POST /api/whatsapp/quick-send', 'GET /api/whatsapp/reports/summary', 'POST /api/team/invites', 'GET /api/wallet/history']),
    );
  });

  it('classifies every user-area route in the shared role table', () => {
    const unclassified = userRoutes.filter((route) => areaOf(route.method, filled(route.pattern, 1))?.area === undefined);
    expect(unclassified.map((route) => `${route.method} ${route.pattern}`)).toEqual([]);
  });

  it('lets each role through exactly where the table allows it, and refuses the rest naming the roles needed', async () => {
    const mismatches: string[] = [];
    for (const route of userRoutes) {
      const path = filled(route.pattern, 999_999);
      const allowed = rolesFor(route.method, path) ?? [];
      for (const role of TEAM_ROLES) {
        const may = allowed.includes(role);
        if (may && STREAMS.has(path)) continue;
        const client = members.get(role);
        if (!client) throw new Error(`no client for ${role}`);
        const response = await client.request<{ code?: string; error?: string }>(route.method, path, route.method === 'GET' ? undefined : {});
        const refused = response.status === 403 && response.body.code === 'role_required';
        if (may && refused) mismatches.push(`${role} refused on ${route.method} ${route.pattern}`);
        if (!may) {
          const expected = fillMessage(messages.team.roleRequired, {
            role: TEAM_ROLE_LABELS[role].toLowerCase(),
            roles: allowed.map((name) => TEAM_ROLE_LABELS[name].toLowerCase()).join(' or '),
          });
          if (!refused || response.body.error !== expected) mismatches.push(`${role} let through on ${route.method} ${route.pattern}: ${response.status}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it('keeps the owner-only areas to the owner', () => {
    expect(AREA_ROLES.team).toEqual(['owner']);
    expect(AREA_ROLES.billing).toEqual(['owner']);
  });

  it('never reaches another account’s records through an id in the path, whatever the role', async () => {
    const other = await signedInClient(server, { creditRupees: 10 });
    const template = await buildTemplate(server, other.user, { status: 'DRAFT' });
    const { campaignId } = await buildCampaign(server, other.user, { status: 'completed' });
    const key = await other.client.post<{ data: { id: number } }>('/api/keys', { name: 'theirs' });
    const ids: [RegExp, number][] = [
      [/^\/api\/templates\//, template.id],
      [/^\/api\/campaigns\//, campaignId],
      [/^\/api\/keys\//, key.body.data.id],
    ];
    const reached: string[] = [];
    for (const route of userRoutes) {
      if (!route.pattern.includes('/:')) continue;
      const id = ids.find(([prefix]) => prefix.test(route.pattern))?.[1];
      if (id === undefined) continue;
      const path = filled(route.pattern, id);
      for (const role of TEAM_ROLES) {
        const client = members.get(role);
        if (!client) throw new Error(`no client for ${role}`);
        const response = await client.request(route.method, path, route.method === 'GET' ? undefined : {});
        if (response.status >= 200 && response.status < 300) reached.push(`${role} ${route.method} ${path}: ${response.status}`);
      }
    }
    expect(reached).toEqual([]);
    expect(await server.db('templates').where({ id: template.id }).first('id')).toBeTruthy();
    expect(await server.db('api_keys').where({ id: key.body.data.id }).whereNull('revokedAt').first('id')).toBeTruthy();
    // And a member cannot move a session into an account they do not belong to.
    for (const role of TEAM_ROLES) {
      const response = await members.get(role)?.post(`/api/accounts/${other.user.id}/switch`);
      expect(response?.status).toBe(403);
    }
    expect(ownerId).not.toBe(other.user.id);
  }, 60_000);
});
