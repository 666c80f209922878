import { ImagePlus, Upload, X } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { messages } from '@shared/messages';
import { formatFileSize } from '../../lib/headerMedia';
import { HEADER_IMAGE_ACCEPT, headerImageError } from '../../lib/sending/setup';
import { cn } from '../../lib/cn';
import { dismissToast, errorToast, TOAST_IDS } from '../../lib/toasts';
import { Button } from '../ui/button';
import { FieldError } from '../ui/input';
import { Label } from '../ui/label';

/** A picked header image and the object URL its preview shows (made and revoked by the page). */
export interface ChosenImage {
  file: File;
  url: string;
}

/**
 * The header image of a template with a static image header (spec 002 "Quick Send" step 3):
 * JPG or PNG, at most 5 MB, with a preview. Required to send such a template.
 */
export function HeaderImageUpload({
  image,
  onChange,
  disabled = false,
  missing = false,
}: {
  image: ChosenImage | null;
  onChange: (file: File | null) => void;
  disabled?: boolean;
  /** Set after a send attempt without an image. */
  missing?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState('');

  const handleFile = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const problem = headerImageError(file);
    if (problem) {
      setError(problem);
      errorToast(TOAST_IDS.headerImage, problem);
      return;
    }
    setError('');
    // The send's 'requires an image header' toast (same id) is answered now.
    dismissToast(TOAST_IDS.headerImage);
    onChange(file);
  };

  const shownError = error || (missing && !image ? messages.sending.imageRequired : '');

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>
        Header Image <span className="text-red-600 dark:text-red-400" aria-hidden="true">*</span>
        <span className="sr-only"> (required)</span>
      </Label>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <div
          className={cn(
            'flex aspect-video w-full max-w-56 items-center justify-center overflow-hidden rounded-lg border border-dashed bg-slate-50 dark:bg-slate-900',
            shownError ? 'border-red-400 dark:border-red-500' : 'border-slate-300 dark:border-slate-700',
          )}
        >
          {image ? (
            <img src={image.url} alt="Chosen header image" className="size-full object-cover" />
          ) : (
            <ImagePlus className="size-8 text-slate-400" aria-hidden="true" />
          )}
        </div>
        <div className="flex flex-col gap-2">
          {/* The input stays for its label and the file dialog; the button stands in for its native "No file chosen" face. */}
          <input
            ref={input}
            id={id}
            type="file"
            accept={HEADER_IMAGE_ACCEPT}
            disabled={disabled}
            onChange={handleFile}
            tabIndex={-1}
            aria-invalid={shownError ? true : undefined}
            aria-describedby={shownError ? `${id}-error` : `${id}-hint`}
            data-testid="header-image-input"
            className="sr-only"
          />
          <Button type="button" variant="outline" size="sm" className="self-start" disabled={disabled} onClick={() => input.current?.click()}>
            <Upload aria-hidden="true" />
            {image ? messages.sheetScreens.chooseAnotherImage : messages.sheetScreens.chooseImage}
          </Button>
          {image ? (
            <p className="flex items-center gap-2 text-sm">
              <span className="max-w-52 truncate">{image.file.name}</span>
              <span className="text-slate-500 dark:text-slate-400">({formatFileSize(image.file.size)})</span>
              <Button variant="ghost" size="icon" className="size-7" disabled={disabled} onClick={() => onChange(null)}>
                <X aria-hidden="true" />
                <span className="sr-only">Remove header image</span>
              </Button>
            </p>
          ) : null}
          <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
            JPG or PNG, up to 5 MB. It goes out as the message's header.
          </p>
          <FieldError id={`${id}-error`} message={shownError} />
        </div>
      </div>
    </div>
  );
}
