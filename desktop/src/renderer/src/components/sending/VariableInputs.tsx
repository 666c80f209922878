import type { SendVariable } from '../../lib/sending/setup';
import { Input } from '../ui/input';
import { Label } from '../ui/label';

/** One input per template variable; the required flag decides the asterisk (spec 002 §5). */
export function VariableInputs({
  variables,
  values,
  examples,
  onChange,
  disabled = false,
  showMissing = false,
}: {
  variables: readonly SendVariable[];
  values: Record<string, string>;
  /** The template's examples, shown as placeholders (never sent unless typed). */
  examples: Record<string, string>;
  onChange: (index: string, value: string) => void;
  disabled?: boolean;
  /** After a send attempt: empty required inputs are marked. */
  showMissing?: boolean;
}) {
  if (variables.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">This template has no variables: every recipient gets the same text.</p>;
  }
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {variables.map((variable) => {
        const id = `quick-send-variable-${variable.index}`;
        const value = values[variable.index] ?? '';
        const missing = showMissing && variable.required && value.trim() === '';
        return (
          <div key={variable.index} className="flex flex-col gap-1.5">
            <Label htmlFor={id}>
              Variable {variable.placeholder}
              {variable.required ? (
                <>
                  <span className="ml-0.5 text-red-600 dark:text-red-400" aria-hidden="true">
                    *
                  </span>
                  <span className="sr-only"> (required)</span>
                </>
              ) : null}
            </Label>
            <Input
              id={id}
              value={value}
              disabled={disabled}
              invalid={missing}
              required={variable.required}
              placeholder={examples[variable.index] ? `e.g. ${examples[variable.index]}` : `Value for ${variable.placeholder}`}
              onChange={(event) => onChange(variable.index, event.target.value)}
            />
          </div>
        );
      })}
    </div>
  );
}
