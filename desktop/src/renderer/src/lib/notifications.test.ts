import { describe, expect, it } from 'vitest';
import {
  autoRemoveDelay,
  createNotification,
  notificationsReducer,
  unreadCount,
  visibleNotification,
  type AppNotification,
} from './notifications';

function make(id: string, type: AppNotification['type'] = 'info'): AppNotification {
  return createNotification({ type, message: `message ${id}` }, id, 1_000);
}

describe('autoRemoveDelay', () => {
  it('removes success and info after 4 seconds', () => {
    expect(autoRemoveDelay({ type: 'success' })).toBe(4_000);
    expect(autoRemoveDelay({ type: 'info' })).toBe(4_000);
  });

  it('keeps warnings, errors and persistent notifications until dismissed', () => {
    expect(autoRemoveDelay({ type: 'warning' })).toBeNull();
    expect(autoRemoveDelay({ type: 'error' })).toBeNull();
    expect(autoRemoveDelay({ type: 'success', persistent: true })).toBeNull();
  });

  it('honours a custom duration', () => {
    expect(autoRemoveDelay({ type: 'info', duration: 6_000 })).toBe(6_000);
  });
});

describe('notificationsReducer', () => {
  it('adds newest first as unread', () => {
    let state = notificationsReducer([], { type: 'add', notification: make('a') });
    state = notificationsReducer(state, { type: 'add', notification: make('b') });
    expect(state.map((n) => n.id)).toEqual(['b', 'a']);
    expect(state.every((n) => !n.read)).toBe(true);
  });

  it('caps the list at 50 by dropping the oldest', () => {
    let state: AppNotification[] = [];
    for (let i = 0; i < 55; i++) state = notificationsReducer(state, { type: 'add', notification: make(String(i)) });
    expect(state).toHaveLength(50);
    expect(state[0]?.id).toBe('54');
    expect(state.at(-1)?.id).toBe('5');
  });

  it('removes a dismissed notification', () => {
    const state = [make('a'), make('b')];
    expect(notificationsReducer(state, { type: 'remove', id: 'a' }).map((n) => n.id)).toEqual(['b']);
  });

  it('marks one or all as read and clears', () => {
    const state = [make('a'), make('b')];
    const one = notificationsReducer(state, { type: 'markRead', id: 'b' });
    expect(one.find((n) => n.id === 'b')?.read).toBe(true);
    expect(one.find((n) => n.id === 'a')?.read).toBe(false);
    expect(unreadCount(notificationsReducer(state, { type: 'markAllRead' }))).toBe(0);
    expect(notificationsReducer(state, { type: 'clear' })).toEqual([]);
  });
});

describe('visibleNotification', () => {
  it('shows only the first unread one', () => {
    const state = [{ ...make('new'), read: true }, make('middle'), make('old')];
    expect(visibleNotification(state)?.id).toBe('middle');
    expect(visibleNotification([{ ...make('x'), read: true }])).toBeUndefined();
  });
});
