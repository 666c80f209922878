import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { decideGuard, type GuardKind } from '../../lib/guards';
import { useSessionStore } from '../../stores/sessionStore';
import { AccessDenied } from './AccessDenied';
import { SessionLoading } from './SessionLoading';

/** Location state carried to /login: where the visitor was going. */
export interface LoginLocationState {
  from?: string;
}

export function readFrom(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const from = (state as LoginLocationState).from;
  return typeof from === 'string' ? from : undefined;
}

/** Renders its children (or the nested routes) only when `kind` lets the current session in. */
export function Guard({ kind, children }: { kind: GuardKind; children?: ReactNode }) {
  const location = useLocation();
  const isLoading = useSessionStore((state) => state.isLoading);
  const user = useSessionStore((state) => state.user);
  const decision = decideGuard(
    kind,
    { isLoading, user },
    `${location.pathname}${location.search}`,
    readFrom(location.state),
  );

  switch (decision.kind) {
    case 'loading':
      return <SessionLoading />;
    case 'denied':
      return <AccessDenied />;
    case 'redirect': {
      const state: LoginLocationState | undefined = decision.from ? { from: decision.from } : undefined;
      return <Navigate to={decision.to} replace state={state} />;
    }
    case 'allow':
      return <>{children ?? <Outlet />}</>;
  }
}

export const RequireAuth = ({ children }: { children?: ReactNode }) => <Guard kind="auth">{children}</Guard>;
export const RequireAdmin = ({ children }: { children?: ReactNode }) => <Guard kind="admin">{children}</Guard>;
export const RequireUser = ({ children }: { children?: ReactNode }) => <Guard kind="user">{children}</Guard>;
export const PublicOnly = ({ children }: { children?: ReactNode }) => <Guard kind="public-only">{children}</Guard>;
