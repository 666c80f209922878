import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PublicOnly, RequireAdmin, RequireAuth, RequireUser } from './components/guards/Guard';
import { SessionLoading } from './components/guards/SessionLoading';
import { AuthenticatedLayout } from './components/layout/AuthenticatedLayout';
import { roleHome } from './lib/roles';
import { AdminDashboardPage } from './pages/admin/AdminDashboardPage';
import { AdminLogsPage } from './pages/admin/AdminLogsPage';
import { AdminTestNotificationsPage } from './pages/admin/AdminTestNotificationsPage';
import { AdminPricingPage } from './pages/admin/AdminPricingPage';
import { AdminSettingsPage } from './pages/admin/AdminSettingsPage';
import { AdminTemplateQueuePage } from './pages/admin/AdminTemplateQueuePage';
import { AdminUserDetailsPage } from './pages/admin/AdminUserDetailsPage';
import { AdminUserSettingsPage } from './pages/admin/AdminUserSettingsPage';
import { AdminUserTemplatesPage } from './pages/admin/AdminUserTemplatesPage';
import { AdminUsersPage } from './pages/admin/AdminUsersPage';
import { AdminWalletPage } from './pages/admin/AdminWalletPage';
import { LoginPage } from './pages/auth/LoginPage';
import { SignupPage } from './pages/auth/SignupPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ProfilePage } from './pages/ProfilePage';
import { LandingPage } from './pages/public/LandingPage';
import { ApiManagementPage } from './pages/user/ApiManagementPage';
import { CustomizeMessagePage } from './pages/user/CustomizeMessagePage';
import { ManageReportsPage } from './pages/user/ManageReportsPage';
import { QuickSendPage } from './pages/user/QuickSendPage';
import { TemplateBuilderPage } from './pages/user/TemplateBuilderPage';
import { TemplatesPage } from './pages/user/TemplatesPage';
import { UserDashboardPage } from './pages/user/UserDashboardPage';
import { WalletPage } from './pages/user/WalletPage';
import { useSessionStore } from './stores/sessionStore';

/** The long static pages load on demand so that the app itself starts fast. */
function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const DocsPage = lazyNamed(() => import('./pages/public/DocsPage'), 'DocsPage');
const ContactPage = lazyNamed(() => import('./pages/public/ContactPage'), 'ContactPage');
const PrivacyPage = lazyNamed(() => import('./pages/public/PrivacyPage'), 'PrivacyPage');
const RefundPolicyPage = lazyNamed(() => import('./pages/public/RefundPolicyPage'), 'RefundPolicyPage');
const TermsPage = lazyNamed(() => import('./pages/public/TermsPage'), 'TermsPage');

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
              <Route path="/user/api-management" element={<ApiManagementPage />} />
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
              <Route path="/admin/test-notifications" element={<AdminTestNotificationsPage />} />
              <Route path="/admin/profile" element={<ProfilePage />} />
            </Route>
          </Route>

          {/* Legacy navigation targets (docs/decisions.md "Routes"). */}
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
