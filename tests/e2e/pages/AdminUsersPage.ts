import { expect, type Page } from '@playwright/test';

export interface NewUser {
  name: string;
  email: string;
  username: string;
  password: string;
}

/** The user table with its Add User and Delete User dialogs (admin dashboard and /admin/users). */
export class AdminUsersPage {
  constructor(private readonly page: Page) {}

  row(username: string) {
    return this.page.getByRole('row').filter({ hasText: username });
  }

  async search(text: string): Promise<void> {
    await this.page.getByPlaceholder(/Search/i).fill(text);
  }

  async addUser(user: NewUser): Promise<void> {
    await this.page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = this.page.getByRole('dialog');
    await dialog.getByLabel('Full Name', { exact: true }).fill(user.name);
    await dialog.getByLabel('Email', { exact: true }).fill(user.email);
    await dialog.getByLabel('Username', { exact: true }).fill(user.username);
    await dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: /Create User|Add User/ }).click();
    await expect(dialog).toBeHidden();
  }

  async deleteUser(username: string): Promise<void> {
    await this.page.getByRole('button', { name: `Actions for ${username}` }).click();
    await this.page.getByRole('menuitem', { name: /Delete/ }).click();
    const dialog = this.page.getByRole('alertdialog');
    await dialog.getByRole('button', { name: /Delete/ }).click();
    await expect(dialog).toBeHidden();
  }
}
