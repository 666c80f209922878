/** What every signed-in page shares, users and admins alike: the frame, the session timers, the profile. */
export { AuthenticatedLayout } from '../components/layout/AuthenticatedLayout';
export { SessionManager } from '../components/session/SessionManager';
export { ProfilePage } from '../pages/ProfilePage';
export { AcceptInvitePage } from '../pages/auth/AcceptInvitePage';
