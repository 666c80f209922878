import { describe, expect, it, vi } from 'vitest';
import { STREAM_EVENTS, type TStreamEvent } from '@shared/schemas/notifications';
import { createLiveStream, type StreamHandlers, type StreamOpener } from './liveStream';

/** An opener that records what it opened, for the test to drive. */
function fakeOpener() {
  const opened: { url: string; types: readonly TStreamEvent[]; handlers: StreamHandlers; closed: boolean }[] = [];
  const open: StreamOpener = (url, types, handlers) => {
    const entry = { url, types, handlers, closed: false };
    opened.push(entry);
    return { close: () => void (entry.closed = true) };
  };
  return { opened, open };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createLiveStream', () => {
  it('opens one connection for every listener, delivers events by type, and closes with the last listener', async () => {
    const { opened, open } = fakeOpener();
    const stream = createLiveStream({ url: async () => 'https://x.example/api/notifications/stream', open });
    const notifications: unknown[] = [];
    const progress: unknown[] = [];
    const offNotifications = stream.on(STREAM_EVENTS.notification, (data) => notifications.push(data));
    const offProgress = stream.on(STREAM_EVENTS.campaignProgress, (data) => progress.push(data));
    await flush();
    expect(opened).toHaveLength(1);
    expect(opened[0]!.url).toBe('https://x.example/api/notifications/stream');
    expect([...opened[0]!.types].sort()).toEqual(Object.values(STREAM_EVENTS).sort());

    const changes = vi.fn();
    stream.onConnectedChange(changes);
    opened[0]!.handlers.onOpen();
    expect(stream.connected()).toBe(true);
    opened[0]!.handlers.onEvent(STREAM_EVENTS.notification, '{"id":1}');
    opened[0]!.handlers.onEvent(STREAM_EVENTS.campaignProgress, '{"id":7,"processed":3}');
    opened[0]!.handlers.onEvent(STREAM_EVENTS.campaignProgress, 'not json');
    expect(notifications).toEqual([{ id: 1 }]);
    expect(progress).toEqual([{ id: 7, processed: 3 }]);

    offProgress();
    expect(opened[0]!.closed).toBe(false);
    offNotifications();
    expect(opened[0]!.closed).toBe(true);
    expect(stream.connected()).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('hands the last progress events (not notifications) to a listener that comes later', async () => {
    const { opened, open } = fakeOpener();
    const stream = createLiveStream({ url: async () => '/api/notifications/stream', open });
    stream.on(STREAM_EVENTS.notification, () => undefined);
    await flush();
    opened[0]!.handlers.onEvent(STREAM_EVENTS.notification, '{"id":1}');
    opened[0]!.handlers.onEvent(STREAM_EVENTS.campaignProgress, '{"id":7,"processed":3}');
    const late: unknown[] = [];
    const lateNotifications: unknown[] = [];
    stream.on(STREAM_EVENTS.campaignProgress, (data) => late.push(data));
    stream.on(STREAM_EVENTS.notification, (data) => lateNotifications.push(data));
    expect(late).toEqual([{ id: 7, processed: 3 }]);
    expect(lateNotifications).toEqual([]);
  });

  it('opens again after the browser gave up on the stream, and never opens where there is no EventSource', async () => {
    const { opened, open } = fakeOpener();
    const stream = createLiveStream({ url: async () => '/s', open });
    const off = stream.on(STREAM_EVENTS.notification, () => undefined);
    await flush();
    opened[0]!.handlers.onOpen();
    opened[0]!.handlers.onError(false);
    expect(stream.connected()).toBe(false);
    expect(opened[0]!.closed).toBe(false);
    opened[0]!.handlers.onError(true);
    expect(opened[0]!.closed).toBe(true);
    off();
    stream.on(STREAM_EVENTS.notification, () => undefined);
    await flush();
    expect(opened).toHaveLength(2);

    const desktop = createLiveStream({ url: async () => '/s', open: null });
    desktop.on(STREAM_EVENTS.campaignProgress, () => undefined);
    await flush();
    expect(desktop.connected()).toBe(false);
  });
});
