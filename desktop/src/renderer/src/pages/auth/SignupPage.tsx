import { UserPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { AUTH } from '@shared/constants';
import { messages } from '@shared/messages';
import { passwordStrength, ZSignupRequest, type PasswordStrength, type TSignupRequest } from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText, serverFieldErrors } from '../../api/client';
import { AuthShell } from '../../components/layout/AuthShell';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { FormEmailField, FormPasswordField, FormPhoneField, FormTextField, FormUsernameField } from '../../components/form/fields';
import { showServerFieldErrors, useSchemaForm } from '../../components/form/useSchemaForm';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { errorToast, successToast, TOAST_IDS } from '../../lib/toasts';

const emptyForm: TSignupRequest = {
  name: '',
  email: '',
  username: '',
  phoneNumber: '',
  password: '',
  confirmPassword: '',
};

const strengthLooks: Record<PasswordStrength, { bar: string; text: string; width: string }> = {
  weak: { bar: 'bg-red-500', text: 'text-red-600 dark:text-red-400', width: 'w-1/3' },
  medium: { bar: 'bg-amber-500', text: 'text-amber-600 dark:text-amber-400', width: 'w-2/3' },
  strong: { bar: 'bg-emerald-500', text: 'text-emerald-600 dark:text-emerald-400', width: 'w-full' },
};

function StrengthHint({ password }: { password: string }) {
  if (!password) return null;
  const strength = passwordStrength(password);
  const looks = strengthLooks[strength];
  return (
    <div className="flex items-center gap-3" aria-live="polite">
      <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800" aria-hidden="true">
        <div className={cn('h-full rounded-full transition-all', looks.bar, looks.width)} />
      </div>
      <p className={cn('text-xs font-medium', looks.text)}>
        Password strength: <span data-testid="password-strength">{messages.passwordStrength[strength]}</span>
      </p>
    </div>
  );
}

/** /signup (spec 000 §2.5): creates an account, then sends the person to /login. */
export function SignupPage() {
  const navigate = useNavigate();
  const form = useSchemaForm(ZSignupRequest, emptyForm);
  const password = useWatch({ control: form.control, name: 'password' });
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

  const handleSignup = async (account: z.output<typeof ZSignupRequest>) => {
    setIsSubmitting(true);
    setError('');
    try {
      await authApi.signup(account);
      setSuccess(messages.auth.signupSuccess);
      successToast(TOAST_IDS.signup, messages.auth.signupSuccess);
      redirectTimer.current = setTimeout(() => navigate('/login', { replace: true }), AUTH.signupRedirectDelayMs);
    } catch (caught) {
      const text = errorText(caught, messages.auth.signupFailed, messages.common.networkErrorRetry);
      setError(text);
      errorToast(TOAST_IDS.signup, text);
      showServerFieldErrors(form, serverFieldErrors(caught));
      setIsSubmitting(false);
    }
  };

  const disabled = isSubmitting || Boolean(success);

  return (
    <AuthShell
      title="Create your account"
      description="Start sending WhatsApp campaigns in minutes. Pay only for what you send."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-emerald-700 hover:underline dark:text-emerald-400">
            Sign in
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={(event) => void form.handleSubmit(handleSignup)(event)} className="flex flex-col gap-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {success ? <Alert tone="success">{success}</Alert> : null}
        <FormTextField control={form.control} name="name" id="signup-name" label="Full Name" autoComplete="name" autoFocus disabled={disabled} />
        <FormEmailField control={form.control} name="email" id="signup-email" disabled={disabled} />
        <FormUsernameField
          control={form.control}
          name="username"
          id="signup-username"
          hint="Letters, numbers and underscores only."
          disabled={disabled}
        />
        <FormPhoneField
          control={form.control}
          name="phoneNumber"
          id="signup-phone"
          hint="Optional. Country code and number, no + sign."
          disabled={disabled}
        />
        <div className="flex flex-col gap-2">
          <FormPasswordField
            control={form.control}
            name="password"
            id="signup-password"
            label="Password"
            autoComplete="new-password"
            disabled={disabled}
          />
          <StrengthHint password={password} />
        </div>
        <FormPasswordField
          control={form.control}
          name="confirmPassword"
          id="signup-confirm-password"
          label="Confirm Password"
          autoComplete="new-password"
          disabled={disabled}
        />
        <Button type="submit" disabled={disabled} className="w-full">
          {isSubmitting ? <Spinner className="text-current" /> : <UserPlus aria-hidden="true" />}
          Create Account
        </Button>
      </form>
    </AuthShell>
  );
}
