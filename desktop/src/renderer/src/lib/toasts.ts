import { toast } from 'sonner';
import { NOTIFICATIONS } from '@shared/constants';

/**
 * Toasts of one action share an id, so a later toast of that action (a success after an error,
 * a second error) replaces the earlier one instead of piling up behind it.
 */
export const TOAST_IDS = {
  login: 'auth-login',
  passwordReset: 'auth-password-reset',
  signup: 'auth-signup',
  profileSave: 'profile-save',
  headerImage: 'send-header-image',
  walletHistory: 'wallet-history',
  walletReceipt: 'wallet-receipt',
  taxDocument: 'tax-document',
} as const;
export type ToastId = (typeof TOAST_IDS)[keyof typeof TOAST_IDS];

interface ToastText {
  description?: string;
}

/** An error that goes after the same time as every other toast (5 s), and replaces its action's earlier toast. */
export function errorToast(id: ToastId, text: string, options: ToastText = {}): void {
  toast.error(text, { id, description: options.description, duration: NOTIFICATIONS.toastDurationMs });
}

export function successToast(id: ToastId, text: string, options: ToastText = {}): void {
  toast.success(text, { id, description: options.description, duration: NOTIFICATIONS.toastDurationMs });
}

export function dismissToast(id: ToastId): void {
  toast.dismiss(id);
}
