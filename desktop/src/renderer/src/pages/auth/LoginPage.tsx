import { ArrowLeft, KeyRound, LogIn, MessageSquareText, RotateCw, ShieldCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { AUTH } from '@shared/constants';
import { fillMessage, messages } from '@shared/messages';
import {
  digitsOnly,
  ZForgotPasswordRequest,
  ZLoginRequest,
  ZResetPasswordForm,
  ZVerifyOtpRequest,
} from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText } from '../../api/client';
import { readFrom } from '../../components/guards/Guard';
import { AuthShell } from '../../components/layout/AuthShell';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PasswordField, TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
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

/** /login: sign in, and the forgot-password flow in three more modes (spec 000 §2.4, §4.3). */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = readFrom(location.state);
  const signIn = useSessionStore((state) => state.signIn);

  const [mode, setMode] = useState<LoginMode>('login');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState('');
  const [otp, setOtp] = useState('');
  const [phoneLast4, setPhoneLast4] = useState('');
  const [otpSentAt, setOtpSentAt] = useState<number | null>(null);
  const inactivityLogout = isInactivityLogout(location.search);
  const [resetToken, setResetToken] = useState<string | undefined>(undefined);
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
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

  const handleFieldChange = (field: string, setter: (value: string) => void) => (value: string) => {
    setter(value);
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const resetForgotState = () => {
    setPhone('');
    setOtp('');
    setPhoneLast4('');
    setResetToken(undefined);
    setNewPassword('');
    setConfirmPassword('');
    setFieldErrors({});
    setError('');
    setSuccess('');
  };

  const handleBackToLogin = () => {
    resetForgotState();
    setMode('login');
  };

  const handleForgotPasswordClick = () => {
    setFieldErrors({});
    setError('');
    setSuccess('');
    setMode('forgot-password');
  };

  /**
   * Every mode submits the same way: validate with the shared schema (field errors on failure),
   * call the server, show its error (or the mode's fallback) on failure. A successful login keeps
   * the form busy until the redirect.
   */
  const submitStep = async <S extends z.ZodType>(
    event: FormEvent,
    step: {
      schema: S;
      values: z.input<S>;
      fallback: string;
      onInvalid?: () => void;
      keepBusyOnSuccess?: boolean;
      run: (data: z.output<S>) => Promise<void>;
    },
  ) => {
    event.preventDefault();
    const validation = validateForm(step.schema, step.values);
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      step.onInvalid?.();
      return;
    }
    setIsSubmitting(true);
    setError('');
    try {
      await step.run(validation.data);
      if (!step.keepBusyOnSuccess) setIsSubmitting(false);
    } catch (caught) {
      showError(errorText(caught, step.fallback));
      setIsSubmitting(false);
    }
  };

  const handleLogin = (event: FormEvent) =>
    submitStep(event, {
      schema: ZLoginRequest,
      values: { username, password },
      fallback: a.loginFailed,
      keepBusyOnSuccess: true,
      run: async (data) => {
        const response = await authApi.login(data);
        showSuccess(a.loginSuccess);
        // The success text stays readable for a moment before the dashboard replaces it.
        redirectTimer.current = setTimeout(() => {
          void signIn(response.user, {
            token: response.token,
            idleTimeoutSeconds: response.idleTimeoutSeconds,
          }).then(() => navigate(postLoginTarget(response.user.role, from), { replace: true }));
        }, AUTH.loginRedirectDelayMs);
      },
    });

  const handleForgotPassword = (event: FormEvent) =>
    submitStep(event, {
      schema: ZForgotPasswordRequest,
      values: { username, phone },
      fallback: a.otpSendFailed,
      onInvalid: () => showError(messages.validation.usernameAndPhoneRequired),
      run: async (data) => {
        const response = await authApi.forgotPassword(data);
        if (!response.success || !response.otpSent) return showError(a.otpSendFailed);
        setPhoneLast4(response.phoneLast4 || digitsOnly(phone).slice(-4));
        setOtp('');
        setFieldErrors({});
        setOtpSentAt(Date.now());
        setMode('verify-otp');
        showSuccess(a.otpSent);
      },
    });

  const handleResendOtp = async () => {
    const validation = validateForm(ZForgotPasswordRequest, { username, phone });
    if (!validation.ok) return showError(messages.validation.usernameAndPhoneRequired);
    setIsSubmitting(true);
    try {
      const response = await authApi.forgotPassword(validation.data);
      if (!response.success || !response.otpSent) {
        showError(a.otpSendFailed);
        return;
      }
      setOtp('');
      setOtpSentAt(Date.now());
      showSuccess(a.otpResent);
    } catch (caught) {
      showError(errorText(caught, a.otpSendFailed));
    } finally {
      setIsSubmitting(false);
    }
  };

  const handleVerifyOtp = (event: FormEvent) =>
    submitStep(event, {
      schema: ZVerifyOtpRequest,
      values: { username, otp },
      fallback: a.otpVerifyFailed,
      run: async (data) => {
        const response = await authApi.verifyOtp(data);
        if (!response.success || !response.resetAllowed) return showError(a.otpInvalid);
        setResetToken(response.resetToken);
        setNewPassword('');
        setConfirmPassword('');
        setFieldErrors({});
        setMode('reset-password');
        showSuccess(a.otpVerified);
      },
    });

  const handleResetPassword = (event: FormEvent) =>
    submitStep(event, {
      schema: ZResetPasswordForm,
      values: { newPassword, confirmPassword },
      fallback: a.resetFailed,
      run: async () => {
        await authApi.resetPassword({
          username: username.trim(),
          newPassword,
          // Browsers prove the verified code with the httpOnly cookie; the desktop app cannot.
          resetToken: platform.kind === 'desktop' ? resetToken : undefined,
        });
        resetForgotState();
        setPassword('');
        setMode('login');
        showSuccess(a.resetSuccess);
      },
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
          <form noValidate onSubmit={handleLogin} className="flex flex-col gap-4">
            <TextField
              id="login-username"
              label="Username"
              autoComplete="username"
              autoFocus
              value={username}
              error={fieldErrors.username}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('username', setUsername)(e.target.value)}
            />
            <PasswordField
              id="login-password"
              label="Password"
              autoComplete="current-password"
              value={password}
              error={fieldErrors.password}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('password', setPassword)(e.target.value)}
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
          <form noValidate onSubmit={handleForgotPassword} className="flex flex-col gap-4">
            <TextField
              id="forgot-username"
              label="Username"
              autoComplete="username"
              autoFocus
              value={username}
              invalid={Boolean(fieldErrors.username)}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('username', setUsername)(e.target.value)}
            />
            <TextField
              id="forgot-phone"
              label="Phone Number"
              inputMode="numeric"
              autoComplete="tel"
              placeholder="919876543210"
              hint="Country code and number, digits only, no + sign."
              value={phone}
              invalid={Boolean(fieldErrors.phone)}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('phone', setPhone)(digitsOnly(e.target.value))}
            />
            <Button type="submit" disabled={isSubmitting} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <MessageSquareText aria-hidden="true" />}
              Send OTP
            </Button>
          </form>
        ) : null}

        {mode === 'verify-otp' ? (
          <form noValidate onSubmit={handleVerifyOtp} className="flex flex-col gap-4">
            {phoneLast4 ? (
              <p className="text-center text-sm text-slate-600 dark:text-slate-300">
                {fillMessage(messages.app.otpSentTo, { length: AUTH.otpLength, last4: phoneLast4 })}
              </p>
            ) : null}
            <TextField
              id="verify-otp"
              label="OTP"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              maxLength={AUTH.otpLength}
              placeholder="••••••"
              className="text-center font-mono text-xl tracking-[0.5em]"
              value={otp}
              error={fieldErrors.otp}
              disabled={isSubmitting}
              onChange={(e) =>
                handleFieldChange('otp', setOtp)(digitsOnly(e.target.value).slice(0, AUTH.otpLength))
              }
            />
            <Button type="submit" disabled={isSubmitting || otp.length !== AUTH.otpLength} className="w-full">
              {isSubmitting ? <Spinner className="text-current" /> : <ShieldCheck aria-hidden="true" />}
              Verify OTP
            </Button>
            {otpSentAt !== null ? <ResendCode sentAt={otpSentAt} disabled={isSubmitting} onResend={() => void handleResendOtp()} /> : null}
          </form>
        ) : null}

        {mode === 'reset-password' ? (
          <form noValidate onSubmit={handleResetPassword} className="flex flex-col gap-4">
            <PasswordField
              id="reset-new-password"
              label="New Password"
              autoComplete="new-password"
              autoFocus
              value={newPassword}
              error={fieldErrors.newPassword}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('newPassword', setNewPassword)(e.target.value)}
            />
            <PasswordField
              id="reset-confirm-password"
              label="Confirm Password"
              autoComplete="new-password"
              value={confirmPassword}
              error={fieldErrors.confirmPassword}
              disabled={isSubmitting}
              onChange={(e) => handleFieldChange('confirmPassword', setConfirmPassword)(e.target.value)}
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
