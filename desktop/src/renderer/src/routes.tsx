import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PublicOnly, RequireAdmin, RequireAuth, RequireUser } from './components/guards/Guard';
import { SessionLoading } from './components/guards/SessionLoading';
import { roleHome } from './lib/roles';
import { NotFoundPage } from './pages/NotFoundPage';
import { LandingPage } from './pages/public/LandingPage';
import { useSessionStore } from './stores/sessionStore';

/**
 * A named export of a module loaded on demand. Each area is one module (areas/*), so each area is
 * one chunk: a visitor of the landing page downloads none of the signed-in or admin screens, and
 * recharts loads only with the pages that chart (components/reports/TimelineChart.tsx).
 */
export function lazyNamed<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(async () => ({ default: (await load())[name] }));
}

const loadPublicPages = () => import('./areas/publicPages');
const loadAuth = () => import('./areas/auth');
const loadSignedIn = () => import('./areas/signedIn');
const loadUser = () => import('./areas/user');
const loadAdmin = () => import('./areas/admin');

const DocsPage = lazyNamed(() => import('./pages/public/DocsPage'), 'DocsPage');
const ContactPage = lazyNamed(loadPublicPages, 'ContactPage');
const PrivacyPage = lazyNamed(loadPublicPages, 'PrivacyPage');
const RefundPolicyPage = lazyNamed(loadPublicPages, 'RefundPolicyPage');
const TermsPage = lazyNamed(loadPublicPages, 'TermsPage');

const LoginPage = lazyNamed(loadAuth, 'LoginPage');
const SignupPage = lazyNamed(loadAuth, 'SignupPage');

export const AuthenticatedLayout = lazyNamed(loadSignedIn, 'AuthenticatedLayout');
export const SessionManager = lazyNamed(loadSignedIn, 'SessionManager');
const ProfilePage = lazyNamed(loadSignedIn, 'ProfilePage');

const ApiManagementPage = lazyNamed(loadUser, 'ApiManagementPage');
const ContactAttributesPage = lazyNamed(loadUser, 'ContactAttributesPage');
const ContactImportPage = lazyNamed(loadUser, 'ContactImportPage');
const ContactDetailsPage = lazyNamed(loadUser, 'ContactDetailsPage');
const ContactsPage = lazyNamed(loadUser, 'ContactsPage');
const SegmentsPage = lazyNamed(loadUser, 'SegmentsPage');
const CustomizeMessagePage = lazyNamed(loadUser, 'CustomizeMessagePage');
const ManageReportsPage = lazyNamed(loadUser, 'ManageReportsPage');
const QuickSendPage = lazyNamed(loadUser, 'QuickSendPage');
const RepliesPage = lazyNamed(loadUser, 'RepliesPage');
const SuppressionListPage = lazyNamed(loadUser, 'SuppressionListPage');
const TeamPage = lazyNamed(loadUser, 'TeamPage');
const AcceptInvitePage = lazyNamed(loadSignedIn, 'AcceptInvitePage');
const TemplateBuilderPage = lazyNamed(loadUser, 'TemplateBuilderPage');
const TemplatesPage = lazyNamed(loadUser, 'TemplatesPage');
const UserDashboardPage = lazyNamed(loadUser, 'UserDashboardPage');
const WalletPage = lazyNamed(loadUser, 'WalletPage');

const AdminDashboardPage = lazyNamed(loadAdmin, 'AdminDashboardPage');
const AdminLogsPage = lazyNamed(loadAdmin, 'AdminLogsPage');
const AdminWebhookEventsPage = lazyNamed(loadAdmin, 'AdminWebhookEventsPage');
const AdminMetaBillPage = lazyNamed(loadAdmin, 'AdminMetaBillPage');
const AdminInvoicesPage = lazyNamed(loadAdmin, 'AdminInvoicesPage');
const AdminPricingPage = lazyNamed(loadAdmin, 'AdminPricingPage');
const AdminSettingsPage = lazyNamed(loadAdmin, 'AdminSettingsPage');
const AdminTestNotificationsPage = lazyNamed(loadAdmin, 'AdminTestNotificationsPage');
const AdminUserDetailsPage = lazyNamed(loadAdmin, 'AdminUserDetailsPage');
const AdminUserSettingsPage = lazyNamed(loadAdmin, 'AdminUserSettingsPage');
const AdminUserTemplatesPage = lazyNamed(loadAdmin, 'AdminUserTemplatesPage');
const AdminUsersPage = lazyNamed(loadAdmin, 'AdminUsersPage');
const AdminWalletPage = lazyNamed(loadAdmin, 'AdminWalletPage');
const AdminTemplateQueuePage = lazyNamed(loadAdmin, 'AdminTemplateQueuePage');

function RoleDashboardRedirect() {
  const role = useSessionStore((state) => state.user?.role);
  return <Navigate to={roleHome(role)} replace />;
}

/** Unknown paths: inside the app frame for a signed-in person, on their own for visitors. */
function NotFoundRoute() {
  const isAuthenticated = useSessionStore((state) => state.isAuthenticated);
  const isLoading = useSessionStore((state) => state.isLoading);
  if (isLoading) return <SessionLoading />;
  if (isAuthenticated) {
    return (
      <AuthenticatedLayout>
        <NotFoundPage />
      </AuthenticatedLayout>
    );
  }
  return (
    <div className="flex min-h-screen items-center justify-center bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <NotFoundPage />
    </div>
  );
}

/** The route table of spec 000 §2.1 and spec 001 §2. */
export function AppRoutes() {
  return (
    <Suspense fallback={<SessionLoading />}>
      <Routes>
        {/* Public: visible to everyone, signed in or not. */}
        <Route path="/" element={<LandingPage />} />
        <Route path="/docs" element={<DocsPage />} />
        <Route path="/contact" element={<ContactPage />} />
        <Route path="/privacy" element={<PrivacyPage />} />
        <Route path="/refund-policy" element={<RefundPolicyPage />} />
        <Route path="/terms" element={<TermsPage />} />
        <Route path="/support" element={<Navigate to="/contact" replace />} />

        {/* Signed-in people are sent on to their dashboard. */}
        <Route element={<PublicOnly />}>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
        </Route>

        <Route element={<RequireAuth />}>
          <Route element={<AuthenticatedLayout />}>
            <Route path="/profile" element={<ProfilePage />} />
            <Route path="/invite/:token" element={<AcceptInvitePage />} />

            <Route element={<RequireUser />}>
              <Route path="/user" element={<Navigate to="/user/dashboard" replace />} />
              <Route path="/user/dashboard" element={<UserDashboardPage />} />
              <Route path="/user/profile" element={<ProfilePage />} />
              <Route path="/user/wallet" element={<WalletPage />} />
              <Route path="/user/billing" element={<Navigate to="/user/wallet" replace />} />
              <Route path="/user/templates" element={<TemplatesPage />} />
              <Route path="/user/templates/create" element={<TemplateBuilderPage />} />
              <Route path="/user/templates/:id/edit" element={<TemplateBuilderPage />} />
              <Route path="/user/whatsapp-bulk" element={<QuickSendPage />} />
              <Route path="/user/customize-message" element={<CustomizeMessagePage />} />
              <Route path="/user/manage-reports" element={<ManageReportsPage />} />
              <Route path="/user/replies" element={<RepliesPage />} />
              <Route path="/user/api-management" element={<ApiManagementPage />} />
              <Route path="/user/suppression-list" element={<SuppressionListPage />} />
              <Route path="/user/contacts" element={<ContactsPage />} />
              <Route path="/user/contacts/import" element={<ContactImportPage />} />
              <Route path="/user/contacts/attributes" element={<ContactAttributesPage />} />
              <Route path="/user/contacts/:phone" element={<ContactDetailsPage />} />
              <Route path="/user/segments" element={<SegmentsPage />} />
              <Route path="/user/team" element={<TeamPage />} />
            </Route>

            <Route element={<RequireAdmin />}>
              <Route path="/admin" element={<Navigate to="/admin/dashboard" replace />} />
              <Route path="/admin/dashboard" element={<AdminDashboardPage />} />
              <Route path="/admin/users" element={<AdminUsersPage />} />
              <Route path="/admin/users/:id/details" element={<AdminUserDetailsPage />} />
              <Route path="/admin/users/:id/wallet" element={<AdminWalletPage />} />
              <Route path="/admin/users/:id/settings" element={<AdminUserSettingsPage />} />
              <Route path="/admin/users/:id/templates" element={<AdminUserTemplatesPage />} />
              <Route path="/admin/templates" element={<AdminTemplateQueuePage />} />
              <Route path="/admin/pricing" element={<AdminPricingPage />} />
              <Route path="/admin/settings" element={<AdminSettingsPage />} />
              <Route path="/admin/logs" element={<AdminLogsPage />} />
              <Route path="/admin/webhook-events" element={<AdminWebhookEventsPage />} />
              <Route path="/admin/reconciliation" element={<AdminMetaBillPage />} />
              <Route path="/admin/invoices" element={<AdminInvoicesPage />} />
              <Route path="/admin/test-notifications" element={<AdminTestNotificationsPage />} />
              <Route path="/admin/profile" element={<ProfilePage />} />
            </Route>
          </Route>

          {/* Legacy navigation targets (docs/decisions/2026-11-24-routes.md). */}
          <Route path="/dashboard" element={<RoleDashboardRedirect />} />
        </Route>
        <Route path="/templates" element={<Navigate to="/user/templates" replace />} />
        <Route path="/whatsapp-bulk" element={<Navigate to="/user/whatsapp-bulk" replace />} />
        <Route path="/users" element={<Navigate to="/admin/users" replace />} />

        <Route path="*" element={<NotFoundRoute />} />
      </Routes>
    </Suspense>
  );
}
