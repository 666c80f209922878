import { describe, expect, it } from 'vitest';
import { decideGuard } from './guards';

const visitor = { isLoading: false, user: null };
const user = { isLoading: false, user: { role: 'user' as const } };
const admin = { isLoading: false, user: { role: 'admin' as const } };
const loading = { isLoading: true, user: null };

describe('decideGuard', () => {
  it('waits while the session is loading, whatever the guard', () => {
    for (const kind of ['auth', 'admin', 'user', 'public-only'] as const) {
      expect(decideGuard(kind, loading, '/x')).toEqual({ kind: 'loading' });
    }
  });

  it('sends visitors of protected screens to /login with their origin', () => {
    for (const kind of ['auth', 'admin', 'user'] as const) {
      expect(decideGuard(kind, visitor, '/user/profile?tab=credits')).toEqual({
        kind: 'redirect',
        to: '/login',
        from: '/user/profile?tab=credits',
      });
    }
  });

  it('shows Access Denied to a user on an admin screen and lets admins in', () => {
    expect(decideGuard('admin', user, '/admin/dashboard')).toEqual({ kind: 'denied' });
    expect(decideGuard('admin', admin, '/admin/dashboard')).toEqual({ kind: 'allow' });
  });

  it('sends an admin away from user screens to the admin dashboard', () => {
    expect(decideGuard('user', admin, '/user/dashboard')).toEqual({ kind: 'redirect', to: '/admin/dashboard' });
    expect(decideGuard('user', user, '/user/dashboard')).toEqual({ kind: 'allow' });
  });

  it('lets any signed-in role through the general guard', () => {
    expect(decideGuard('auth', user, '/profile')).toEqual({ kind: 'allow' });
    expect(decideGuard('auth', admin, '/profile')).toEqual({ kind: 'allow' });
  });

  it('keeps visitors on /login and sends signed-in people on to a suitable origin or their dashboard', () => {
    expect(decideGuard('public-only', visitor, '/login')).toEqual({ kind: 'allow' });
    expect(decideGuard('public-only', admin, '/login')).toEqual({ kind: 'redirect', to: '/admin/dashboard' });
    expect(decideGuard('public-only', user, '/login', '/user/profile')).toEqual({
      kind: 'redirect',
      to: '/user/profile',
    });
    expect(decideGuard('public-only', user, '/signup', '/admin/users')).toEqual({
      kind: 'redirect',
      to: '/user/dashboard',
    });
  });
});
