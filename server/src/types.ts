import type { Logger } from './logger';
import type { Session, User } from './models';

export interface AuthContext {
  user: User;
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
