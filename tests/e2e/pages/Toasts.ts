import type { Locator, Page } from '@playwright/test';

/** Sonner's toasts: the region they appear in and each toast by its kind. */
export class Toasts {
  readonly region: Locator;
  readonly all: Locator;
  readonly errors: Locator;
  readonly successes: Locator;

  constructor(page: Page) {
    this.region = page.locator('[data-sonner-toaster]');
    this.all = page.locator('[data-sonner-toast]');
    this.errors = page.locator('[data-sonner-toast][data-type="error"]');
    this.successes = page.locator('[data-sonner-toast][data-type="success"]');
  }

  withText(text: string): Locator {
    return this.all.filter({ hasText: text });
  }
}
