import { ArrowLeft, KeyRound, LogIn, MessageSquareText, RotateCw, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import {
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZResetPasswordForm,
  ZVerifyOtpRequest,
  type TLoginRequest,
  type TResetPasswordForm,
  type TVerifyOtpRequest,
} from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText } from '../../api/client';
import { readFrom } from '../../components/guards/Guard';
import { AuthShell } from '../../components/layout/AuthShell';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { FormCodeField, FormPasswordField, FormPhoneField, FormUsernameField } from '../../components/form/fields';
import { useSchemaForm } from '../../components/form/useSchemaForm';
import { Spinner } from '../../components/ui/spinner';
import { isInactivityLogout, resendWaitSeconds } from '../../lib/inactivity';
import { useNow } from '../../hooks/useNow';
import { postLoginTarget } from '../../lib/roles';
import { errorToast, successToast, TOAST_IDS } from '../../lib/toasts';
import { platform } from '../../platform';
import { useSessionStore } from '../../stores/sessionStore';

export type LoginMode = 'login' | 'forgot-password' | 'verify-otp' | 'reset-password';

const a = messages.auth;

const titles: Record<LoginMode, { title: string; description: string }> = {
  login: { title: 'Welcome back', description: 'Sign in to your account' },
  'forgot-password': {
    title: 'Forgot Password',
    description: 'Enter your username and the WhatsApp number on your account to receive a code.',
  },
  'verify-otp': { title: 'Verify OTP', description: 'Check WhatsApp for your verification code.' },
  'reset-password': { title: 'Reset Password', description: 'Choose a new password for your account.' },
};

/**
 * "Resend code" on the OTP step: offered AUTH.otpResendAfterSeconds after the last code, with a
 * countdown until then. The server's request limits still apply (per username+IP, per IP, per
 * phone), and a refusal shows its wait like any other error.
 */
function ResendCode({ sentAt, disabled, onResend }: { sentAt: number; disabled: boolean; onResend: () => void }) {
  const now = useNow(1000);
  const wait = resendWaitSeconds(sentAt, now.getTime(), AUTH.otpResendAfterSeconds);
  if (wait > 0) {
    return (
      <p className="text-center text-sm text-slate-600 dark:text-slate-300" aria-live="off" data-testid="otp-resend-countdown">
        {fillMessage(a.resendCodeIn, { seconds: wait })}
      </p>
    );
  }
  return (
    <Button variant="link" className="h-auto self-center p-0" disabled={disabled} onClick={onResend}>
      <RotateCw aria-hidden="true" />
      {a.resendCode}
    </Button>
  );
}

const emptyReset = { newPassword: '', confirmPassword: '' };

/** /login: sign in, and the forgot-password flow in three more modes (spec 000 §2.4, §4.3). */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = readFrom(location.state);
  const signIn = useSessionStore((state) => state.signIn);

  const [mode, setMode] = useState<LoginMode>('login');
  // One form per mode; the username typed in one is carried into the next.
  const loginForm = useSchemaForm(ZLoginRequest, { username: '', password: '' });
  const forgotForm = useSchemaForm(ZForgotPasswordRequest, { username: '', phone: '' });
  const verifyForm = useSchemaForm(ZVerifyOtpRequest, { username: '', otp: '' });
  const resetForm = useSchemaForm(ZResetPasswordForm, emptyReset);
  const otp = useWatch({ control: verifyForm.control, name: 'otp' });
  const [phoneLast4, setPhoneLast4] = useState('');
  const [otpSentAt, setOtpSentAt] = useState<number | null>(null);
  const inactivityLogout = isInactivityLogout(location.search);
  const [resetToken, setResetToken] = useState<string | undefined>(undefined);
  const [error, setError] = useState('');
  const [success, setSuccess] = useState('');
  const [isSubmitting, setIsSubmitting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  const showError = (text: string) => {
    setSuccess('');
    setError(text);
    errorToast(TOAST_IDS.login, text);
  };

  const showSuccess = (text: string) => {
    setError('');
    setSuccess(text);
    successToast(TOAST_IDS.login, text);
  };

  /** Leaves the forgot-password flow; the login form keeps the username last typed. */
  const resetForgotState = (password?: string) => {
    const username = mode === 'login' ? loginForm.getValues('username') : forgotForm.getValues('username');
    loginForm.reset({ username, password: password ?? loginForm.getValues('password') });
    forgotForm.reset({ username, phone: '' });
    verifyForm.reset({ username: '', otp: '' });
    resetForm.reset(emptyReset);
    setPhoneLast4('');
    setResetToken(undefined);
    setError('');
    setSuccess('');
  };

  const handleBackToLogin = () => {
    resetForgotState();
    setMode('login');
  };

  const handleForgotPasswordClick = () => {
    loginForm.clearErrors();
    forgotForm.reset({ username: loginForm.getValues('username'), phone: forgotForm.getValues('phone') });
    setError('');
    setSuccess('');
    setMode('forgot-password');
  };

  /**
   * Every mode submits the same way once its schema passed: call the server, show its error (or
   * the mode's fallback) on failure. A successful login keeps the form busy until the redirect.
   */
  const runStep = async (fallback: string, run: () => Promise<void>, keepBusyOnSuccess = false) => {
    setIsSubmitting(true);
    setError('');
    try {
      await run();
      if (!keepBusyOnSuccess) setIsSubmitting(false);
    } catch (caught) {
      showError(errorText(caught, fallback));
      setIsSubmitting(false);
    }
  };

  const handleLogin = (credentials: TLoginRequest) =>
    runStep(
      a.loginFailed,
      async () => {
        const response = await authApi.login(credentials);
        showSuccess(a.loginSuccess);
        // The success text stays readable for a moment before the dashboard replaces it.
        redirectTimer.current = setTimeout(() => {
          void signIn(response.user, {
            token: response.token,
            idleTimeoutSeconds: response.idleTimeoutSeconds,
          }).then(() => navigate(postLoginTarget(response.user.role, from), { replace: true }));
        }, AUTH.loginRedirectDelayMs);
      },
      true,
    );

  const handleForgotPassword = (request: z.output<typeof ZForgotPasswordRequest>) =>
    runStep(a.otpSendFailed, async () => {
      const response = await authApi.forgotPassword(request);
      if (!response.success || !response.otpSent) return showError(a.otpSendFailed);
      setPhoneLast4(response.phoneLast4 || request.phone.slice(-4));
      verifyForm.reset({ username: forgotForm.getValues('username'), otp: '' });
      setOtpSentAt(Date.now());
      setMode('verify-otp');
      showSuccess(a.otpSent);
    });

  const handleResendOtp = async () => {
    const validation = ZForgotPasswordRequest.safeParse(forgotForm.getValues());
    if (!validation.success) return showError(messages.validation.usernameAndPhoneRequired);
    setIsSubmitting(true);
    try {
      const response = await authApi.forgotPassword(validation.data);
      if (!response.success || !response.otpSent) {
        showError(a.otpSendFailed);
        return;
      }
      verifyForm.setValue('otp', '');
      setOtpSentAt(Date.now());
      showSuccess(a.otpResent);
    } catch (caught) {
      showError(errorText(caught, a.otpSendFailed));
    } finally {
      setIsSubmitting(false);
    }
  };

  const handleVerifyOtp = (request: TVerifyOtpRequest) =>
    runStep(a.otpVerifyFailed, async () => {
      const response = await authApi.verifyOtp(request);
      if (!response.success || !response.resetAllowed) return showError(a.otpInvalid);
      setResetToken(response.resetToken);
      resetForm.reset(emptyReset);
      setMode('reset-password');
      showSuccess(a.otpVerified);
    });

  const handleResetPassword = ({ newPassword }: TResetPasswordForm) =>
    runStep(a.resetFailed, async () => {
      await authApi.resetPassword({
        username: forgotForm.getValues('username').trim(),
        newPassword,
        // Browsers prove the verified code with the httpOnly cookie; the desktop app cannot.
        resetToken: platform.kind === 'desktop' ? resetToken : undefined,
      });
      resetForgotState('');
      setMode('login');
      showSuccess(a.resetSuccess);
    });

  const { title, description } = titles[mode];
  const backToLogin =
    mode === 'login' ? null : (
      <Button variant="ghost" onClick={handleBackToLogin}>
        <ArrowLeft aria-hidden="true" />
        Back to Login
      </Button>
    );

  return (
    <AuthShell
      title={title}
      description={description}
      actions={backToLogin}
      footer={
        mode === 'login' ? (
          <>
            Don&apos;t have an account?{' '}
            <Link to="/signup" className="font-semibold text-emerald-700 hover:underline dark:text-emerald-400">
              Sign up
            </Link>
          </>
        ) : null
      }
    >
      <div className="flex flex-col gap-4">
        {mode === 'login' && inactivityLogout && !error && !success ? <Alert tone="warning">{a.sessionExpired}</Alert> : null}
        {error ? <Alert tone="error">{error}</Alert> : null}
        {success ? <Alert tone="success">{success}</Alert> : null}

        {mode === 'login' ? (
          <form noValidate onSubmit={(event) => void loginForm.handleSubmit(handleLogin)(event)} className="flex flex-col gap-4">
            <FormUsernameField control={loginForm.control} name="username" id="login-username" autoFocus disabled={isSubmitting} />
            <FormPasswordField
              control={loginForm.control}
              name="password"
              id="login-password"
              label="Password"
              autoComplete="current-password"
              disabled={isSubmitting}
            />
            <div className="flex justify-end">
              <Button variant="link" className="h-auto p-0" onClick={handleForgotPasswordClick}>
                Forgot Password?
              </Button>
            </div>
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <LogIn aria-hidden="true" />}
              Sign In
            </Button>
          </form>
        ) : null}

        {mode === 'forgot-password' ? (
          <form
            noValidate
            onSubmit={(event) =>
              void forgotForm.handleSubmit(handleForgotPassword, () => showError(messages.validation.usernameAndPhoneRequired))(event)
            }
            className="flex flex-col gap-4"
          >
            <FormUsernameField
              control={forgotForm.control}
              name="username"
              id="forgot-username"
              autoFocus
              messageElsewhere
              disabled={isSubmitting}
            />
            <FormPhoneField
              control={forgotForm.control}
              name="phone"
              id="forgot-phone"
              label="Phone Number"
              hint="Country code and number, digits only, no + sign."
              digitsWhileTyping
              messageElsewhere
              disabled={isSubmitting}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <MessageSquareText aria-hidden="true" />}
              Send OTP
            </Button>
          </form>
        ) : null}

        {mode === 'verify-otp' ? (
          <form noValidate onSubmit={(event) => void verifyForm.handleSubmit(handleVerifyOtp)(event)} className="flex flex-col gap-4">
            {phoneLast4 ? (
              <p className="text-center text-sm text-slate-600 dark:text-slate-300">
                {fillMessage(messages.app.otpSentTo, { length: AUTH.otpLength, last4: phoneLast4 })}
              </p>
            ) : null}
            <FormCodeField
              control={verifyForm.control}
              name="otp"
              id="verify-otp"
              label="OTP"
              length={AUTH.otpLength}
              autoFocus
              placeholder="••••••"
              className="text-center font-mono text-xl tracking-[0.5em]"
              disabled={isSubmitting}
            />
            <Button type="submit" disabled={isSubmitting || otp.length !== AUTH.otpLength} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <ShieldCheck aria-hidden="true" />}
              Verify OTP
            </Button>
            {otpSentAt !== null ? <ResendCode sentAt={otpSentAt} disabled={isSubmitting} onResend={() => void handleResendOtp()} /> : null}
          </form>
        ) : null}

        {mode === 'reset-password' ? (
          <form noValidate onSubmit={(event) => void resetForm.handleSubmit(handleResetPassword)(event)} className="flex flex-col gap-4">
            <FormPasswordField
              control={resetForm.control}
              name="newPassword"
              id="reset-new-password"
              label="New Password"
              autoComplete="new-password"
              autoFocus
              disabled={isSubmitting}
            />
            <FormPasswordField
              control={resetForm.control}
              name="confirmPassword"
              id="reset-confirm-password"
              label="Confirm Password"
              autoComplete="new-password"
              disabled={isSubmitting}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <KeyRound aria-hidden="true" />}
              Reset Password
            </Button>
          </form>
        ) : null}
      </div>
    </AuthShell>
  );
}
