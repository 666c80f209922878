import { UserPlus } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AUTH, PHONE_EXAMPLE } from '@shared/constants';
import { messages } from '@shared/messages';
import { passwordStrength, ZSignupRequest, type PasswordStrength, type TSignupRequest } from '@shared/schemas/auth';
import { authApi } from '../../api/auth';
import { errorText, serverFieldErrors } from '../../api/client';
import { AuthShell } from '../../components/layout/AuthShell';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { PasswordField, TextField } from '../../components/ui/form-field';
import { Spinner } from '../../components/ui/spinner';
import { cn } from '../../lib/cn';
import { validateForm, withoutField, type FieldErrors } from '../../lib/forms';
import { errorToast, successToast, TOAST_IDS } from '../../lib/toasts';

type SignupForm = Required<Omit<TSignupRequest, 'phoneNumber'>> & { phoneNumber: string };

const emptyForm: SignupForm = {
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
  const [form, setForm] = useState<SignupForm>(emptyForm);
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

  const handleChange = (field: keyof SignupForm) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setFieldErrors((errors) => withoutField(errors, field));
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const validation = validateForm(ZSignupRequest, form);
    if (!validation.ok) {
      setFieldErrors(validation.errors);
      return;
    }
    setIsSubmitting(true);
    setError('');
    try {
      await authApi.signup(validation.data);
      setSuccess(messages.auth.signupSuccess);
      successToast(TOAST_IDS.signup, messages.auth.signupSuccess);
      redirectTimer.current = setTimeout(() => navigate('/login', { replace: true }), AUTH.signupRedirectDelayMs);
    } catch (caught) {
      const text = errorText(caught, messages.auth.signupFailed, messages.common.networkErrorRetry);
      setError(text);
      errorToast(TOAST_IDS.signup, text);
      setFieldErrors(serverFieldErrors(caught));
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
      <form noValidate onSubmit={handleSubmit} className="flex flex-col gap-4">
        {error ? <Alert tone="error">{error}</Alert> : null}
        {success ? <Alert tone="success">{success}</Alert> : null}
        <TextField
          id="signup-name"
          label="Full Name"
          autoComplete="name"
          autoFocus
          value={form.name}
          error={fieldErrors.name}
          disabled={disabled}
          onChange={(e) => handleChange('name')(e.target.value)}
        />
        <TextField
          id="signup-email"
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          error={fieldErrors.email}
          disabled={disabled}
          onChange={(e) => handleChange('email')(e.target.value)}
        />
        <TextField
          id="signup-username"
          label="Username"
          autoComplete="username"
          value={form.username}
          error={fieldErrors.username}
          hint="Letters, numbers and underscores only."
          disabled={disabled}
          onChange={(e) => handleChange('username')(e.target.value)}
        />
        <TextField
          id="signup-phone"
          label="Phone Number"
          inputMode="numeric"
          autoComplete="tel"
          placeholder={PHONE_EXAMPLE}
          hint="Optional. Country code and number, no + sign."
          value={form.phoneNumber}
          error={fieldErrors.phoneNumber}
          disabled={disabled}
          onChange={(e) => handleChange('phoneNumber')(e.target.value)}
        />
        <div className="flex flex-col gap-2">
          <PasswordField
            id="signup-password"
            label="Password"
            autoComplete="new-password"
            value={form.password}
            error={fieldErrors.password}
            disabled={disabled}
            onChange={(e) => handleChange('password')(e.target.value)}
          />
          <StrengthHint password={form.password} />
        </div>
        <PasswordField
          id="signup-confirm-password"
          label="Confirm Password"
          autoComplete="new-password"
          value={form.confirmPassword}
          error={fieldErrors.confirmPassword}
          disabled={disabled}
          onChange={(e) => handleChange('confirmPassword')(e.target.value)}
        />
        <Button type="submit" disabled={disabled} className="w-full">
          {isSubmitting ? <Spinner className="text-current" /> : <UserPlus aria-hidden="true" />}
          Create Account
        </Button>
      </form>
    </AuthShell>
  );
}
