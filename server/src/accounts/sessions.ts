import type { Knex } from 'knex';
import { Session, User, type SessionKind } from '../models';
import { hashToken, newToken } from '../security/tokens';

export interface SessionSettings {
  idleTimeoutSeconds: number;
  maxAgeHours: number;
}

export interface SessionMeta {
  ip?: string | null;
  userAgent?: string | null;
}

export type SessionLookup =
  | { status: 'valid'; user: User; session: Session }
  | { status: 'expired' }
  | { status: 'missing' };

/**
 * Server-side sessions: the client holds a random token, the database its hash. A session
 * ends after `idleTimeoutSeconds` without activity or `maxAgeHours` after login, whichever
 * comes first, and at logout.
 */
export class SessionService {
  constructor(
    private readonly deps: { db: Knex; settings: SessionSettings; now?: () => Date },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  get idleTimeoutSeconds(): number {
    return this.deps.settings.idleTimeoutSeconds;
  }

  async create(userId: number, kind: SessionKind, meta: SessionMeta = {}): Promise<{ token: string; session: Session }> {
    const token = newToken();
    const now = this.now();
    const session = await Session.query(this.deps.db).insertAndFetch({
      userId,
      tokenHash: hashToken(token),
      kind,
      createdAt: now,
      lastActivityAt: now,
      expiresAt: new Date(now.getTime() + this.deps.settings.maxAgeHours * 3_600_000),
      ip: meta.ip?.slice(0, 64) ?? null,
      userAgent: meta.userAgent?.slice(0, 255) ?? null,
    });
    return { token, session };
  }

  /** Finds the session for a token; an idle or expired one is deleted and reported as expired. */
  async lookup(token: string): Promise<SessionLookup> {
    const session = await Session.query(this.deps.db).findOne({ tokenHash: hashToken(token) });
    if (!session) return { status: 'missing' };
    const now = this.now().getTime();
    const idleDeadline = session.lastActivityAt.getTime() + this.deps.settings.idleTimeoutSeconds * 1000;
    if (now >= idleDeadline || now >= session.expiresAt.getTime()) {
      await Session.query(this.deps.db).deleteById(session.id);
      return { status: 'expired' };
    }
    const user = await User.query(this.deps.db).findById(session.userId).whereNull('deletedAt');
    if (!user || !user.isActive) {
      await Session.query(this.deps.db).deleteById(session.id);
      return { status: 'missing' };
    }
    return { status: 'valid', user, session };
  }

  /** Records activity: the idle timer starts again from now. */
  async touch(session: Session): Promise<void> {
    const now = this.now();
    await Session.query(this.deps.db).patch({ lastActivityAt: now }).where({ id: session.id });
    session.lastActivityAt = now;
  }

  async destroy(sessionId: number): Promise<void> {
    await Session.query(this.deps.db).deleteById(sessionId);
  }

  async destroyAllForUser(userId: number, trx: Knex = this.deps.db): Promise<void> {
    await Session.query(trx).delete().where({ userId });
  }

  async destroyOthersForUser(userId: number, keepSessionId: number, trx: Knex = this.deps.db): Promise<void> {
    await Session.query(trx).delete().where({ userId }).whereNot({ id: keepSessionId });
  }

  /** Deletes sessions that can no longer be used. Returns how many. */
  async purgeExpired(): Promise<number> {
    const now = this.now();
    const idleCutoff = new Date(now.getTime() - this.deps.settings.idleTimeoutSeconds * 1000);
    return Session.query(this.deps.db)
      .delete()
      .where('lastActivityAt', '<', idleCutoff.toISOString())
      .orWhere('expiresAt', '<', now.toISOString());
  }
}
