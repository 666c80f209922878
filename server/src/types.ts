import type { Logger } from './logger';
import type { TeamRole } from '@shared/teamRoles';
import type { Session, User } from './models';

export interface AuthContext {
  /**
   * The account the request acts for: its owner's user row (account id = that user id). Every
   * service scopes by this, so a member sees and spends what the account owns.
   */
  user: User;
  /** The person signed in: who did it (`actorUserId`), whose profile and password. */
  actor: User;
  /** The person's role in that account; null when they belong to no account any more. */
  accountRole: TeamRole | null;
  session: Session;
  /** How the caller presented the session: the browser cookie or a bearer token (desktop). */
  via: 'cookie' | 'bearer';
}

/** Koa `ctx.state` for every request. */
export interface AppState {
  requestId: string;
  log: Logger;
  auth: AuthContext | null;
}
