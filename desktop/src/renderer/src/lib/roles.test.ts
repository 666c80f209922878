import { describe, expect, it } from 'vitest';
import { isAdminPath, isUserPath, postLoginTarget, roleHome } from './roles';

describe('roleHome', () => {
  it('sends admins to the admin dashboard and everyone else to the user dashboard', () => {
    expect(roleHome('admin')).toBe('/admin/dashboard');
    expect(roleHome('user')).toBe('/user/dashboard');
    expect(roleHome(undefined)).toBe('/user/dashboard');
  });
});

describe('path areas', () => {
  it('recognises the admin and user areas by their first segment only', () => {
    expect(isAdminPath('/admin')).toBe(true);
    expect(isAdminPath('/admin/users/3/details')).toBe(true);
    expect(isAdminPath('/administrator')).toBe(false);
    expect(isUserPath('/user/profile')).toBe(true);
    expect(isUserPath('/users')).toBe(false);
  });
});

describe('postLoginTarget', () => {
  it('returns to the origin when it suits the role', () => {
    expect(postLoginTarget('user', '/user/profile')).toBe('/user/profile');
    expect(postLoginTarget('admin', '/admin/users?q=a')).toBe('/admin/users?q=a');
    expect(postLoginTarget('user', '/profile')).toBe('/profile');
  });

  it('falls back to the role dashboard when the origin belongs to the other role', () => {
    expect(postLoginTarget('user', '/admin/dashboard')).toBe('/user/dashboard');
    expect(postLoginTarget('admin', '/user/templates')).toBe('/admin/dashboard');
  });

  it('ignores missing, external and auth-page origins', () => {
    expect(postLoginTarget('user', null)).toBe('/user/dashboard');
    expect(postLoginTarget('user', 'https://evil.example/')).toBe('/user/dashboard');
    expect(postLoginTarget('user', '//evil.example/x')).toBe('/user/dashboard');
    expect(postLoginTarget('admin', '/login')).toBe('/admin/dashboard');
    expect(postLoginTarget('admin', '/')).toBe('/admin/dashboard');
  });
});
