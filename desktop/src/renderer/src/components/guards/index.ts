export { Guard, PublicOnly, RequireAdmin, RequireAuth, RequireUser, readFrom } from './Guard';
export type { LoginLocationState } from './Guard';
export { AccessDenied } from './AccessDenied';
export { SessionLoading } from './SessionLoading';
