import { Eye, EyeOff } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { focusRing } from './button';
import { FieldError, Input, type InputProps } from './input';
import { Label } from './label';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** Label above, control, then the error (or the hint when there is no error). */
export function FieldShell({ id, label, error, hint, children, className }: FieldShellProps) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <FieldError id={`${id}-error`} message={error} />
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<InputProps, 'id'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
  fieldClassName?: string;
};

export function TextField({ label, error, hint, id, fieldClassName, ...inputProps }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint} className={fieldClassName}>
      <Input
        id={inputId}
        invalid={Boolean(error)}
        aria-describedby={error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined}
        {...inputProps}
      />
    </FieldShell>
  );
}

/** A password field with a show/hide toggle. */
export function PasswordField({ label, error, hint, id, fieldClassName, ...inputProps }: Omit<TextFieldProps, 'type'>) {
  const generated = useId();
  const inputId = id ?? generated;
  const [visible, setVisible] = useState(false);
  return (
    <FieldShell id={inputId} label={label} error={error} hint={hint} className={fieldClassName}>
      <div className="relative">
        <Input
          id={inputId}
          type={visible ? 'text' : 'password'}
          invalid={Boolean(error)}
          aria-describedby={error ? `${inputId}-error` : hint ? `${inputId}-hint` : undefined}
          className="pr-10"
          {...inputProps}
        />
        <button
          type="button"
          onClick={() => setVisible((value) => !value)}
          aria-pressed={visible}
          aria-controls={inputId}
          className={cn(
            'absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-lg text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white',
            focusRing,
          )}
        >
          {visible ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          <span className="sr-only">{visible ? 'Hide password' : 'Show password'}</span>
        </button>
      </div>
    </FieldShell>
  );
}
